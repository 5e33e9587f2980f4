#pragma once
// Paired comparisons: two arms measured back to back, sample k of one against sample k of the
// other, so what the machine did at that moment cancels out of each difference.
#include <cstddef>
#include <utility>
#include <vector>

namespace wcp {

// The differences candidate − baseline over (baseline, candidate) pairs.
struct PairedDifferences {
  std::size_t pairs = 0;      // pairs where both arms measured
  double median_delta = 0.0;  // of candidate − baseline, per pair
  double mad_delta = 0.0;
  int faster = 0;  // pairs where the candidate took less
  int slower = 0;
  int equal = 0;
};

// Of a non-empty list of (baseline, candidate) pairs.
PairedDifferences paired_differences(const std::vector<std::pair<double, double>>& pairs);

// P(X >= wins) for X ~ Binomial(n, 1/2): the one-sided sign test.
double sign_test_p(int wins, int n);

// The fewest pairs with which a one-sided sign test at `alpha` can credit anything (all pairs one
// way): 5 at 5 %. A comparison with fewer can only report its numbers.
int fewest_pairs_to_credit(double alpha);

}  // namespace wcp
