#include "budget/variables.h"

#include <cstdlib>
#include <stdexcept>
#include <vector>

namespace wcp::budget {
namespace {

// The interpreter is the one variable nearly every budget file needs; a documented fallback
// keeps files runnable on a developer machine where nobody exported it.
constexpr std::string_view kPythonVariable = "WCP_PYTHON";
constexpr std::string_view kPythonFallback = "python3";

bool valid_name(std::string_view name) {
  if (name.empty() || (name.front() >= '0' && name.front() <= '9')) return false;
  for (char c : name) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  return true;
}

std::string resolve(std::string_view expression, const EnvironmentLookup& lookup) {
  const auto separator = expression.find(":-");
  const std::string name(expression.substr(0, separator));
  if (!valid_name(name)) throw std::invalid_argument("bad variable reference ${" + std::string(expression) + "}");
  const auto value = lookup(name);
  if (separator != std::string_view::npos) {
    if (value && !value->empty()) return *value;
    return std::string(expression.substr(separator + 2));
  }
  if (value) return *value;
  if (name == kPythonVariable) return std::string(kPythonFallback);
  throw std::invalid_argument("environment variable " + name + " is not set (write ${" + name +
                              ":-default} to give a fallback)");
}

}  // namespace

std::string expand_variables(std::string_view text, const EnvironmentLookup& lookup) {
  std::string result;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '$') {
      result += text[i];
      continue;
    }
    if (i + 1 < text.size() && text[i + 1] == '$') {
      result += '$';
      ++i;
      continue;
    }
    if (i + 1 >= text.size() || text[i + 1] != '{') {
      throw std::invalid_argument("a `$` must start ${NAME} (write $$ for a literal dollar)");
    }
    const auto close = text.find('}', i + 2);
    if (close == std::string_view::npos) throw std::invalid_argument("unterminated ${ in \"" + std::string(text) + "\"");
    result += resolve(text.substr(i + 2, close - i - 2), lookup);
    i = close;
  }
  return result;
}

}  // namespace wcp::budget
