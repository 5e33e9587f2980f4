// CS-5 (one module built at several CUDA block_dims): the first build at each further block_dim.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analysis/diagnose_support.h"
#include "facts/rebuilds.h"
#include "io/units.h"

namespace wcp::analysis {

void check_block_dim_spread(const Report& report, Diagnosis& out) {
  if (!loads_on_cuda(report)) {
    not_checked(out, Mechanism::block_dim_spread, "CUDA only: this run loaded modules on the CPU only");
    return;
  }
  bool found = false;
  const CodeOwnership ownership(report);
  for (const auto& rebuilt : rebuilt_modules(report)) {
    if (rebuilt.cause != RebuildCause::block_dim_spread && rebuilt.cause != RebuildCause::both) continue;
    Finding finding = make_finding(Mechanism::block_dim_spread);
    finding.module = rebuilt.name;
    assign_owner(finding, ownership.of_module(rebuilt.name));
    // CS-5's builds are the first build at each block_dim; a further build at one block_dim is
    // churn (CS-1/CS-3/CS-6, churn_findings.cpp), listed and costed there.
    std::vector<std::string> at_each;
    double extra = 0.0;
    for (std::size_t i = 0; i < rebuilt.by_block_dim.size(); ++i) {
      const auto& at = rebuilt.by_block_dim[i];
      at_each.push_back(fmt::format("{} (hash {}, {})", at.block_dim ? std::to_string(*at.block_dim) : "unknown",
                                    at.hashes.front(), milliseconds_text(at.first_ms)));
      if (i > 0) extra += at.first_ms;
      if (at.block_dim) finding.facts.block_dims.push_back(*at.block_dim);
      finding.facts.identities.push_back({rebuilt.name, at.hashes.front(), rebuilt.device, 0});
    }
    finding.trigger = fmt::format("Warp's log: module {} on {} compiled at {} block_dims", rebuilt.name, rebuilt.device,
                                  rebuilt.by_block_dim.size());
    finding.evidence.push_back(fmt::format("module {} on {}: first build at each block_dim: {}", rebuilt.name,
                                           rebuilt.device, fmt::join(at_each, ", ")));
    if (rebuilt.churned()) {
      finding.evidence.push_back(
          "further builds at one block_dim changed the hash there: that is churn, reported and costed apart (see "
          "CS-1, CS-3, CS-6 or closure-churn)");
    }
    if (report.cuda_build) {
      // The exit-time CUDA build (`--cuda-arch`) compiled each block_dim's identity again,
      // alone and timed on its thread's CPU: the extra builds' cost, measured apart from the
      // program's own load timers.
      std::vector<std::string> timed;
      for (const auto& build : report.cuda_build->modules) {
        if (build.module == rebuilt.name && build.error.empty() && build.cpu_ms)
          timed.push_back(
              fmt::format("block_dim {} sm_{} {}", build.block_dim, build.arch, milliseconds_text(*build.cpu_ms)));
      }
      if (timed.size() > 1)
        finding.evidence.push_back(
            fmt::format("its CUDA builds at exit (measured CPU time): {}", fmt::join(timed, ", ")));
    }
    finding.facts.event = EventKind::built_at_several_block_dims;
    finding.facts.modules = {rebuilt.name};
    finding.cost_ms = extra;
    finding.cost_basis = "the first build at every block_dim but the first one";
    out.findings.push_back(std::move(finding));
    found = true;
  }
  if (!found) rule_out(out, Mechanism::block_dim_spread, "every module was built at a single block_dim");
}

}  // namespace wcp::analysis
