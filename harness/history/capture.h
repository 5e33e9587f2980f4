#pragma once
// Runs a short helper command (git, nvidia-smi) and returns its output with the trailing
// newline removed, or nullopt when it cannot be found, fails or takes longer than 30 s: what
// the history records about its surroundings is optional and never stops a measurement.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace wcp {
class InterruptWatch;
}

namespace wcp::history {

std::optional<std::string> capture_output(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                                          InterruptWatch& interrupts);

}  // namespace wcp::history
