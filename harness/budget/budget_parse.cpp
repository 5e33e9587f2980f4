#include "budget/budget_parse.h"

#include "budget/command_options.h"

#include <regex>
#include <set>
#include <stdexcept>

#include "budget/budget_settings.h"
#include "budget/yaml_reader.h"
#include "errors.h"
#include "measure/measure.h"
#include "report/atomic_file.h"

namespace wcp::budget {
namespace {

namespace fs = std::filesystem;

// Keys a command entry may carry; `defaults` takes the same keys except the identity ones.
const std::set<std::string>& setting_keys() {
  static const std::set<std::string> keys{
      "command", "cwd", "env", "samples", "timeout", "device", "max_modules", "max_identities",
      "max_builds_per_module", "allow_rebuilds", "cold_seconds", "cold_units", "compile_elapsed_seconds", "warm_near_zero",
      "baseline", "baseline_tolerance_percent", "max_generated_source_bytes", "max_lto_artifacts"};
  return keys;
}

std::string known_keys(bool with_name) {
  std::string text = with_name ? "name" : "";
  for (const auto& key : setting_keys()) text += (text.empty() ? "" : ", ") + key;
  return text;
}

DeviceRequirement device_from(const YamlReader& reader, const YAML::Node& node) {
  const std::string text = reader.string(node, "device");
  if (text == "any") return DeviceRequirement::any;
  if (text == "cpu") return DeviceRequirement::cpu;
  if (text == "cuda") return DeviceRequirement::cuda;
  reader.fail(node, "'device' must be cpu, cuda or any, got '" + text + "'");
}

std::vector<std::string> command_from(const YamlReader& reader, const YAML::Node& node) {
  std::vector<std::string> argv;
  if (node.IsScalar()) {
    try {
      argv = split_command_line(node.Scalar());
    } catch (const std::invalid_argument& error) {
      reader.fail(node, std::string("'command': ") + error.what());
    }
  } else if (node.IsSequence()) {
    argv = reader.string_list(node, "command");
  } else {
    reader.fail(node, "'command' must be a list of arguments or a string");
  }
  if (argv.empty()) reader.fail(node, "'command' is empty");
  return argv;
}

// Reads one mapping of settings. Value nodes are remembered so that later checks (expansion,
// existence of files) can still point at the right line.
struct SettingsNodes {
  Settings settings;
  std::map<std::string, YAML::Node> nodes;
};

SettingsNodes read_settings(const YamlReader& reader, const YAML::Node& mapping, const std::string& what,
                            bool allow_name) {
  SettingsNodes read;
  Settings& s = read.settings;
  reader.for_each_key(mapping, what, [&](const std::string& key, const YAML::Node& key_node, const YAML::Node& value) {
    read.nodes[key] = value;
    if (key == "name" && allow_name) return;  // read by the caller
    if (!setting_keys().contains(key)) {
      reader.fail(key_node, "unknown key '" + key + "' in " + what + " (known: " + known_keys(allow_name) + ")");
    }
    if (key == "command") s.command = command_from(reader, value);
    else if (key == "cwd") s.cwd = reader.string(value, key);
    else if (key == "env") s.env = reader.string_map(value, key);
    else if (key == "samples") s.samples = reader.positive_int(value, key);
    else if (key == "timeout") s.timeout_s = reader.positive_number(value, key);
    else if (key == "device") s.device = device_from(reader, value);
    else if (key == "max_modules") s.max_modules = reader.count(value, key);
    else if (key == "max_identities") s.max_identities = reader.count(value, key);
    else if (key == "max_builds_per_module") s.max_builds_per_module = reader.positive_int(value, key);
    else if (key == "allow_rebuilds") s.allow_rebuilds = reader.string_map(value, key);
    else if (key == "cold_seconds") s.cold_seconds = reader.positive_number(value, key);
    else if (key == "cold_units") s.cold_units = reader.positive_number(value, key);
    else if (key == "compile_elapsed_seconds") s.compile_elapsed_seconds = reader.positive_number(value, key);
    else if (key == "warm_near_zero") s.warm_near_zero = reader.boolean(value, key);
    else if (key == "baseline") s.baseline = reader.string(value, key);
    else if (key == "baseline_tolerance_percent") s.baseline_tolerance_percent = reader.non_negative_number(value, key);
    else if (key == "max_generated_source_bytes") s.max_generated_source_bytes = reader.count(value, key);
    else if (key == "max_lto_artifacts") s.max_lto_artifacts = reader.count(value, key);
  });
  return read;
}

// Finds the node that set `key`, preferring the entry over `defaults`, for error lines.
YAML::Node node_for(const std::string& key, const SettingsNodes& entry, const SettingsNodes& defaults,
                    const YAML::Node& fallback) {
  if (auto it = entry.nodes.find(key); it != entry.nodes.end()) return it->second;
  if (auto it = defaults.nodes.find(key); it != defaults.nodes.end()) return it->second;
  return fallback;
}

class EntryBuilder {
 public:
  EntryBuilder(const YamlReader& reader, const EnvironmentLookup& environment, const LoadOptions& options)
      : reader_(reader), environment_(environment), options_(options) {}

  CommandEntry build(const std::string& name, const YAML::Node& entry_node, const SettingsNodes& entry,
                     const SettingsNodes& defaults) const {
    const Settings s = merge(defaults.settings, entry.settings);
    auto at = [&](const std::string& key) { return node_for(key, entry, defaults, entry_node); };
    CommandEntry command;
    command.name = name;
    command.line = reader_.line_of(entry_node);
    if (!s.command) reader_.fail(entry_node, "command '" + name + "' has no 'command'");
    for (const auto& word : *s.command) command.command.push_back(expand(word, at("command")));
    const fs::path directory = reader_.file().parent_path();
    command.cwd = (directory / (s.cwd ? expand(*s.cwd, at("cwd")) : std::string("."))).lexically_normal();
    for (const auto& [variable, value] : s.env) command.env[variable] = expand(value, at("env"));
    command.samples = s.samples.value_or(command.samples);
    if (s.timeout_s) command.timeout = std::chrono::milliseconds(static_cast<long long>(*s.timeout_s * 1000.0));
    command.device = s.device.value_or(DeviceRequirement::any);

    Budgets& b = command.budgets;
    b.max_modules = s.max_modules;
    b.max_identities = s.max_identities;
    b.max_builds_per_module = s.max_builds_per_module.value_or(1);
    b.allow_rebuilds = s.allow_rebuilds;
    b.cold_seconds = s.cold_seconds;
    b.cold_units = s.cold_units;
    b.compile_elapsed_seconds = s.compile_elapsed_seconds;
    b.warm_near_zero = s.warm_near_zero.value_or(false);
    if (s.baseline) b.baseline = (directory / expand(*s.baseline, at("baseline"))).lexically_normal();
    b.baseline_tolerance_percent = s.baseline_tolerance_percent.value_or(0.0);
    b.max_generated_source_bytes = s.max_generated_source_bytes;
    b.max_lto_artifacts = s.max_lto_artifacts;

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
    const measure::MeasureOptions probe = measure_options_for(command);
    try {
      measure::validate(probe);
    } catch (const UsageError& error) {
      const bool about_cwd = std::string(error.what()).find("working directory") != std::string::npos;
      reader_.fail(at(about_cwd ? "cwd" : "command"), "command '" + command.name + "': " + error.what());
    }
    const auto& baseline = command.budgets.baseline;
    std::error_code ignored;
    if (baseline && !options_.baseline_may_be_missing && !fs::is_regular_file(*baseline, ignored)) {
      reader_.fail(at("baseline"), "command '" + command.name + "': baseline report " + baseline->string() +
                                       " does not exist (run `check --update-baseline` to create it)");
    }
  }

  const YamlReader& reader_;
  const EnvironmentLookup& environment_;
  const LoadOptions& options_;
};

}  // namespace

std::string to_string(DeviceRequirement device) {
  switch (device) {
    case DeviceRequirement::any: return "any";
    case DeviceRequirement::cpu: return "cpu";
    case DeviceRequirement::cuda: return "cuda";
  }
  return "any";
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
  reader.for_each_key(root, "the budget file", [&](const std::string& key, const YAML::Node& key_node, const YAML::Node& value) {
    if (key == "version") {
      if (reader.positive_int(value, key) != 1) reader.fail(value, "only budget file version 1 is known");
    } else if (key == "defaults") {
      defaults = read_settings(reader, value, "defaults", false);
      if (defaults.settings.command) reader.fail(defaults.nodes["command"], "'command' belongs in a command entry, not in defaults");
      if (defaults.settings.baseline) reader.fail(defaults.nodes["baseline"], "'baseline' belongs in a command entry, not in defaults");
    } else if (key == "commands") {
      commands = value;
    } else {
      reader.fail(key_node, "unknown key '" + key + "' at the top level (known: version, defaults, commands)");
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
      reader.fail(name_node->second, "'name' may only use letters, digits and _ . + - (it becomes a test name), got '" + name + "'");
    }
    if (auto previous = names.find(name); previous != names.end()) {
      reader.fail(name_node->second, "duplicate command name '" + name + "' (first at line " +
                                         std::to_string(previous->second) + ")");
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
