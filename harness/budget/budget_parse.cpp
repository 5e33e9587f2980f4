#include "budget/budget_parse.h"

#include <regex>
#include <set>
#include <stdexcept>
#include <utility>

#include "budget/budget_keys.h"
#include "errors.h"
#include "io/environment.h"
#include "io/executable.h"
#include "io/file_io.h"
#include "io/name_table.h"
#include "io/suggestion.h"
#include "io/yaml_reader.h"

namespace wcp::budget {
namespace {

namespace fs = std::filesystem;

// Reads one mapping of settings through the key table. Value nodes are remembered so that
// later checks (expansion, existence of files) can still point at the right line.
struct SettingsNodes {
  Settings settings;
  std::map<std::string, YAML::Node> nodes;
};

SettingsNodes read_settings(const YamlReader& reader, const YAML::Node& mapping, const std::string& what,
                            bool is_entry) {
  SettingsNodes read;
  reader.for_each_key(mapping, what, [&](const std::string& name, const YAML::Node& key_node, const YAML::Node& value) {
    read.nodes[name] = value;
    if (name == "name" && is_entry) return;  // read by the caller
    const KeySpec* spec = find_key(name);
    if (spec == nullptr) {
      reader.fail(key_node, "unknown key '" + name + "' in " + what + did_you_mean(name, key_names(is_entry)) +
                                " (known: " + known_keys(is_entry) + ")");
    }
    if (!is_entry && !spec->in_defaults) {
      reader.fail(key_node, "'" + name + "' belongs in a command entry, not in defaults");
    }
    spec->read(reader, value, read.settings);
  });
  return read;
}

Settings merge(const Settings& defaults, const Settings& entry) {
  Settings merged = defaults;
  for (const auto& spec : budget_keys()) spec.merge(merged, entry);
  return merged;
}

// Finds the node that set `key`, preferring the entry over `defaults`, for error lines.
YAML::Node node_for(std::string_view key, const SettingsNodes& entry, const SettingsNodes& defaults,
                    const YAML::Node& fallback) {
  if (auto it = entry.nodes.find(std::string(key)); it != entry.nodes.end()) return it->second;
  if (auto it = defaults.nodes.find(std::string(key)); it != defaults.nodes.end()) return it->second;
  return fallback;
}

class EntryBuilder {
 public:
  EntryBuilder(const YamlReader& reader, const EnvironmentLookup& environment, const LoadOptions& options)
      : reader_(reader), environment_(environment), options_(options) {}

  CommandEntry build(const std::string& name, const YAML::Node& entry_node, const SettingsNodes& entry,
                     const SettingsNodes& defaults) const {
    const Settings s = merge(defaults.settings, entry.settings);
    auto at = [&](std::string_view key) { return node_for(key, entry, defaults, entry_node); };
    CommandEntry command;
    command.name = name;
    command.line = reader_.line_of(entry_node);
    if (!s.command) reader_.fail(entry_node, "command '" + name + "' has no 'command'");
    for (const auto& word : *s.command) command.command.push_back(expand(word, at(key::command)));
    const fs::path directory = reader_.file().parent_path();
    command.cwd = (directory / (s.cwd ? expand(*s.cwd, at(key::cwd)) : std::string("."))).lexically_normal();
    for (const auto& [variable, value] : s.env) command.env[variable] = expand(value, at(key::env));
    if (s.samples && s.samples->fixed) {
      command.samples = *s.samples->fixed;
      command.auto_samples = false;
    }
    // A timeout beyond a year is a typo, and beyond what milliseconds in a long long can hold.
    if (s.timeout && *s.timeout > 365.0 * 86400.0)
      reader_.fail(entry_node, "command '" + name + "': 'timeout' is more than a year of seconds");
    if (s.timeout) command.timeout = std::chrono::milliseconds(static_cast<long long>(*s.timeout * 1000.0));
    command.device = s.device.value_or(DeviceRequirement::any);
    if (s.cuda_arch) command.cuda_archs = *s.cuda_arch;
    // The CUDA build's budgets read a build that only `cuda_arch` asks for.
    const std::pair<std::string_view, bool> cuda_budgets[] = {
        {key::max_cuda_compile_seconds, s.max_cuda_compile_seconds.has_value()},
        {key::max_module_cuda_compile_seconds, s.max_module_cuda_compile_seconds.has_value()},
        {key::max_kernel_cuda_compile_ms, s.max_kernel_cuda_compile_ms.has_value()},
        {key::max_cuda_output_bytes, s.max_cuda_output_bytes.has_value()},
    };
    for (const auto& [key, present] : cuda_budgets) {
      if (present && !s.cuda_arch) {
        reader_.fail(at(key), "command '" + name + "': '" + std::string(key) +
                                  "' needs 'cuda_arch' (the architectures to build for, e.g. cuda_arch: sm_86)");
      }
    }
    command.budgets = s;
    if (s.baseline) command.baseline_report = (directory / expand(*s.baseline, at(key::baseline))).lexically_normal();
    if (s.baseline_rev) command.baseline_rev = expand(*s.baseline_rev, at(key::baseline));
    if (options_.check_files) check_files(command, at);
    return command;
  }

 private:
  std::string expand(const std::string& text, const YAML::Node& node) const {
    try {
      return expand_variables(text, environment_);
    } catch (const std::invalid_argument& error) {
      reader_.fail(node, error.what());
    }
  }

  template <typename At>
  void check_files(const CommandEntry& command, At at) const {
    std::error_code ignored;
    if (!fs::is_directory(command.cwd, ignored)) {
      reader_.fail(at(key::cwd),
                   "command '" + command.name + "': working directory " + command.cwd.string() + " does not exist");
    }
    try {
      Environment environment = current_environment();
      for (const auto& [name, value] : command.env) environment[name] = value;
      resolve_executable(command.command.front(), environment, command.cwd);
    } catch (const UsageError& error) {
      reader_.fail(at(key::command), "command '" + command.name + "': " + error.what());
    }
    const auto& baseline = command.baseline_report;
    if (baseline && !options_.baseline_may_be_missing && !fs::is_regular_file(*baseline, ignored)) {
      reader_.fail(at(key::baseline), "command '" + command.name + "': baseline report " + baseline->string() +
                                          " does not exist (run `check --update-baseline` to create it)");
    }
  }

  const YamlReader& reader_;
  const EnvironmentLookup& environment_;
  const LoadOptions& options_;
};

constexpr NameTable<DeviceRequirement, 3> kDevices{{
    {DeviceRequirement::any, "any"},
    {DeviceRequirement::cpu, "cpu"},
    {DeviceRequirement::cuda, "cuda"},
}};

}  // namespace

std::string to_string(DeviceRequirement device) {
  return std::string(name_of(kDevices, device));
}

BudgetFile parse_budget_text(std::string_view text, const fs::path& path, const EnvironmentLookup& environment,
                             const LoadOptions& options) {
  const fs::path absolute = fs::absolute(path).lexically_normal();
  const YamlReader reader(absolute);
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::ParserException& error) {
    throw UsageError(absolute.string() + ":" + std::to_string(error.mark.line + 1) + ": not valid YAML: " + error.msg);
  }
  if (!root.IsMap()) {
    throw UsageError(absolute.string() + ":1: a budget file is a mapping with 'defaults' and 'commands'");
  }

  SettingsNodes defaults;
  YAML::Node commands;
  reader.for_each_key(root, "the budget file",
                      [&](const std::string& key, const YAML::Node& key_node, const YAML::Node& value) {
                        if (key == "version") {
                          if (reader.positive_int(value, key) != 1)
                            reader.fail(value, "only budget file version 1 is known");
                        } else if (key == "defaults") {
                          defaults = read_settings(reader, value, "defaults", false);
                        } else if (key == "commands") {
                          commands = value;
                        } else {
                          reader.fail(key_node, "unknown key '" + key + "' at the top level" +
                                                    did_you_mean(key, {"version", "defaults", "commands"}) +
                                                    " (known: version, defaults, commands)");
                        }
                      });
  if (!commands || !commands.IsSequence() || commands.size() == 0) {
    reader.fail(commands ? commands : root, "'commands' must be a non-empty list of command entries");
  }

  BudgetFile file;
  file.path = absolute;
  const EntryBuilder builder(reader, environment, options);
  std::map<std::string, int> names;
  for (const auto& entry_node : commands) {
    const SettingsNodes entry = read_settings(reader, entry_node, "a command entry", true);
    const auto name_node = entry.nodes.find("name");
    if (name_node == entry.nodes.end()) reader.fail(entry_node, "command entry without a 'name'");
    const std::string name = reader.string(name_node->second, "name");
    if (!std::regex_match(name, std::regex("[A-Za-z0-9_.+-]+"))) {
      reader.fail(name_node->second,
                  "'name' may only use letters, digits and _ . + - (it becomes a test name), got '" + name + "'");
    }
    if (auto previous = names.find(name); previous != names.end()) {
      reader.fail(name_node->second,
                  "duplicate command name '" + name + "' (first at line " + std::to_string(previous->second) + ")");
    }
    names.emplace(name, reader.line_of(name_node->second));
    file.commands.push_back(builder.build(name, entry_node, entry, defaults));
  }
  return file;
}

BudgetFile load_budget_file(const fs::path& path, const EnvironmentLookup& environment, const LoadOptions& options) {
  return parse_budget_text(read_text_file(path, "budget file"), path, environment, options);
}

}  // namespace wcp::budget
