#include "budget/command_options.h"

namespace wcp::budget {

measure::MeasureOptions measure_options_for(const CommandEntry& entry) {
  measure::MeasureOptions options;
  options.command = entry.command;
  options.cwd = entry.cwd;
  options.samples = entry.samples;
  options.timeout = entry.timeout;
  options.label = entry.name;
  options.extra_environment = entry.env;
  return options;
}

}  // namespace wcp::budget
