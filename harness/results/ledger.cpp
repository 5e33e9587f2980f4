#include "results/ledger.h"

#include "errors.h"
#include "io/file_io.h"
#include "io/yaml_reader.h"

namespace wcp::results {

Ledger parse_ledger(const std::string& text, const std::filesystem::path& path) {
  const auto absolute = std::filesystem::absolute(path).lexically_normal();
  const YamlReader reader(absolute);
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& error) {
    throw UsageError(absolute.string() + ":" + std::to_string(error.mark.line + 1) + ": not valid YAML: " + error.msg);
  }
  Ledger ledger;
  if (root.IsNull()) return ledger;
  reader.for_each_key(
      root, "the ledger", [&](const std::string& key, const YAML::Node& key_node, const YAML::Node& value) {
        if (key != "declined") reader.fail(key_node, "unknown key '" + key + "' (known: declined)");
        if (!value.IsSequence()) reader.fail(value, "'declined' must be a list of entries");
        for (const auto& entry_node : value) {
          LedgerEntry entry;
          bool has_option = false, has_measured = false, has_why = false;
          reader.for_each_key(entry_node, "a ledger entry",
                              [&](const std::string& name, const YAML::Node& name_node, const YAML::Node& field) {
                                if (name == "option")
                                  entry.option = reader.string(field, name), has_option = true;
                                else if (name == "measured")
                                  entry.measured = reader.string(field, name), has_measured = true;
                                else if (name == "why_not")
                                  entry.why_not = reader.string(field, name), has_why = true;
                                else if (name == "to_take_it")
                                  entry.to_take_it = reader.string(field, name);
                                else
                                  reader.fail(name_node,
                                              "unknown key '" + name +
                                                  "' in a ledger entry (known: option, measured, why_not, to_take_it)");
                              });
          if (!has_option || !has_measured || !has_why) {
            reader.fail(entry_node, "a ledger entry needs 'option', 'measured' (its measured effect) and 'why_not'");
          }
          ledger.declined.push_back(std::move(entry));
        }
      });
  return ledger;
}

Ledger load_ledger(const std::filesystem::path& path) {
  return parse_ledger(read_text_file(path, "ledger"), path);
}

}  // namespace wcp::results
