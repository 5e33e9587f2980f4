#include "render/results_cells.h"

#include <fmt/format.h>

namespace wcp::render {

std::string summary_cell(const std::optional<Summary>& summary) {
  if (!summary) return "unavailable";
  std::string text = fmt::format("{:.1f} ms", summary->median);
  if (summary->mad) text += fmt::format(" ± {:.1f}", *summary->mad);
  text += summary->count > 0 ? fmt::format(" (n={})", summary->count) : " (n unknown)";
  return text;
}

std::string change_cell(const verdict::ClockComparison& clock) {
  if (!clock.delta_ms) return "unavailable";
  std::string text = fmt::format("{:+.1f} ms", *clock.delta_ms);
  if (clock.delta_percent) text += fmt::format(" ({:+.1f}%)", *clock.delta_percent);
  if (clock.paired) text += fmt::format(", paired over {}", clock.paired->pairs);
  return text;
}

std::string band_cell(const verdict::ClockComparison& clock) {
  return clock.band_ms ? fmt::format("±{:.1f} ms", *clock.band_ms) : "—";
}

std::string ms_cell(const std::optional<double>& ms) { return ms ? fmt::format("{:.1f}", *ms) : "—"; }

std::string residual_sentence(const results::Residual& residual) {
  if (!residual.module_ms || !residual.cold_wall_ms) {
    return "The residual is unavailable: the candidate's module work or cold wall time was not measured.";
  }
  return fmt::format(
      "After the change, the cold start of {:.0f} ms still spends {:.0f} ms of module work on compiling{}{}.",
      *residual.cold_wall_ms, *residual.module_ms,
      residual.elapsed_ms ? fmt::format(" ({:.0f} ms of elapsed time)", *residual.elapsed_ms) : "",
      residual.share ? fmt::format(": {:.0f}% of the cold start", 100.0 * *residual.share) : "");
}

}  // namespace wcp::render
