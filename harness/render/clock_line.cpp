#include "render/clock_line.h"

#include <fmt/format.h>

#include "render/results_cells.h"
#include "render/wrap.h"

namespace wcp::render {

void render_clock_lines(const verdict::ClockComparison& clock, std::ostream& out) {
  print_wrapped(fmt::format("{}: {} → {}", verdict::to_string(clock.clock), summary_cell(clock.baseline),
                            summary_cell(clock.candidate)),
                "  ", "    ", out);
  std::string line =
      fmt::format("{}, noise band {}: {}", change_cell(clock), band_cell(clock), verdict::to_string(clock.direction));
  if (const std::string detectable = verdict::detectable_text(clock); !detectable.empty()) line += "; " + detectable;
  print_wrapped(line, "    ", "    ", out);
}

}  // namespace wcp::render
