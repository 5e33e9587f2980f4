#pragma once
// Where a history lives, as --history or WCP_HISTORY names it:
//   PATH or sqlite:PATH                    an SQLite file on this machine (the default)
//   postgresql://… or postgres://…         a PostgreSQL database a team's runners share
// A PostgreSQL URL may carry credentials; they reach libpq and nothing else: every message,
// report and stored result shows the location through shown(), which drops the password.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "io/environment.h"

namespace wcp::history {

struct HistoryLocation {
  enum class Backend { sqlite, postgresql };
  Backend backend = Backend::sqlite;
  std::filesystem::path file;  // sqlite
  std::string url;             // postgresql, as given (credentials included: never print it)

  // For messages: the file, or the URL without its password (user, host, port, database).
  std::string shown() const;
  bool operator==(const HistoryLocation&) const = default;
};

// Throws UsageError for an empty path or a URL of another scheme ("mysql://…").
HistoryLocation parse_history_location(std::string_view text);

// The location a command names: --history wins over WCP_HISTORY; none when neither is set.
std::optional<HistoryLocation> history_location(const std::string& option, const EnvironmentLookup& environment);

// A connection URL with its password removed, from the userinfo ("user:secret@") and from a
// `password=` query parameter.
std::string without_password(std::string_view url);
// The password of a connection URL's userinfo ("user:secret@"), "" when it has none: what a
// message must be scrubbed of.
std::string password_in(std::string_view url);

}  // namespace wcp::history
