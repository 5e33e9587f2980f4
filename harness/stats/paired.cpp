#include "stats/paired.h"

#include <cmath>

#include "stats/summary.h"

namespace wcp {

PairedDifferences paired_differences(const std::vector<std::pair<double, double>>& pairs) {
  PairedDifferences differences;
  std::vector<double> deltas;
  for (const auto& [baseline, candidate] : pairs) {
    deltas.push_back(candidate - baseline);
    differences.faster += candidate < baseline ? 1 : 0;
    differences.slower += candidate > baseline ? 1 : 0;
    differences.equal += candidate == baseline ? 1 : 0;
  }
  differences.pairs = deltas.size();
  differences.median_delta = median(deltas);
  differences.mad_delta = median_absolute_deviation(deltas);
  return differences;
}

double sign_test_p(int wins, int n) {
  if (n <= 0 || wins <= 0) return 1.0;
  double tail = 0.0, choose = 1.0;  // C(n, k), built up from k = 0
  for (int k = 0; k <= n; ++k) {
    if (k > 0) choose = choose * static_cast<double>(n - k + 1) / static_cast<double>(k);
    if (k >= wins) tail += choose;
  }
  return tail / std::pow(2.0, n);
}

int fewest_pairs_to_credit(double alpha) {
  int n = 1;
  while (n < 64 && sign_test_p(n, n) > alpha) ++n;
  return n;
}

}  // namespace wcp
