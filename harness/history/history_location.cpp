#include "history/history_location.h"

#include "errors.h"

namespace wcp::history {
namespace {

constexpr std::string_view kSqlitePrefix = "sqlite:";

bool is_postgresql_url(std::string_view text) {
  return text.starts_with("postgresql://") || text.starts_with("postgres://");
}

// "mysql://x" and the like: a scheme this tool does not store to. A Windows-style "C:\…" or a
// plain relative path has no "://".
std::optional<std::string_view> other_scheme(std::string_view text) {
  const auto separator = text.find("://");
  if (separator == std::string_view::npos || separator == 0) return std::nullopt;
  for (const char letter : text.substr(0, separator)) {
    if (!std::isalnum(static_cast<unsigned char>(letter)) && letter != '+' && letter != '-' && letter != '.') {
      return std::nullopt;
    }
  }
  return text.substr(0, separator);
}

std::string without_password_parameter(std::string_view query) {
  std::string kept;
  std::size_t start = 0;
  while (start <= query.size()) {
    const auto end = std::min(query.find('&', start), query.size());
    const auto parameter = query.substr(start, end - start);
    if (!parameter.empty() && !parameter.starts_with("password=")) {
      if (!kept.empty()) kept += '&';
      kept += parameter;
    }
    start = end + 1;
  }
  return kept;
}

}  // namespace

std::string without_password(std::string_view url) {
  const auto scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) return std::string(url);
  const auto authority_start = scheme_end + 3;
  const auto authority_end = std::min(url.find_first_of("/?", authority_start), url.size());
  std::string shown(url.substr(0, authority_start));
  const auto authority = url.substr(authority_start, authority_end - authority_start);
  // The last '@' ends the userinfo (a password may itself hold an '@' when not percent-encoded).
  const auto at = authority.rfind('@');
  if (at != std::string_view::npos) {
    const auto userinfo = authority.substr(0, at);
    shown += userinfo.substr(0, userinfo.find(':'));
    shown += authority.substr(at);
  } else {
    shown += authority;
  }
  auto rest = url.substr(authority_end);
  const auto question = rest.find('?');
  shown += rest.substr(0, question);
  if (question != std::string_view::npos) {
    const auto query = without_password_parameter(rest.substr(question + 1));
    if (!query.empty()) shown += "?" + query;
  }
  return shown;
}

std::string password_in(std::string_view url) {
  const auto scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) return "";
  const auto authority_start = scheme_end + 3;
  const auto authority = url.substr(authority_start, url.find_first_of("/?", authority_start) - authority_start);
  const auto at = authority.rfind('@');
  if (at == std::string_view::npos) return "";
  const auto userinfo = authority.substr(0, at);
  const auto colon = userinfo.find(':');
  return colon == std::string_view::npos ? "" : std::string(userinfo.substr(colon + 1));
}

std::string HistoryLocation::shown() const {
  return backend == Backend::sqlite ? file.string() : without_password(url);
}

HistoryLocation parse_history_location(std::string_view text) {
  HistoryLocation location;
  if (is_postgresql_url(text)) {
    location.backend = HistoryLocation::Backend::postgresql;
    location.url = std::string(text);
    return location;
  }
  if (const auto scheme = other_scheme(text)) {
    throw UsageError("history " + without_password(text) + ": the scheme '" + std::string(*scheme) +
                     "' is not one this tool stores to (a file path, sqlite:PATH or postgresql://…)");
  }
  if (text.starts_with(kSqlitePrefix)) text.remove_prefix(kSqlitePrefix.size());
  if (text.empty()) throw UsageError("history: an empty path (a file path, sqlite:PATH or postgresql://…)");
  location.file = std::filesystem::path(text);
  return location;
}

std::optional<HistoryLocation> history_location(const std::string& option, const EnvironmentLookup& environment) {
  std::string text = option;
  if (text.empty()) text = environment("WCP_HISTORY").value_or("");
  if (text.empty()) return std::nullopt;
  return parse_history_location(text);
}

}  // namespace wcp::history
