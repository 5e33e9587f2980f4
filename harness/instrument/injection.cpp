#include "instrument/injection.h"

#include <fstream>
#include <optional>
#include <string>

#include "errors.h"
#include "instrument/instrumentation_sources.h"
#include "instrument/native_sources.h"

namespace wcp::instrument {
namespace {

std::string prepend_path(const std::string& first, const std::string& rest) {
  return rest.empty() ? first : first + ":" + rest;
}

bool is_env_program(const std::string& program) {
  return program == "env" || program.ends_with("/env");
}

bool is_assignment(const std::string& token) {
  const auto equals = token.find('=');
  return equals != std::string::npos && equals > 0 && token.front() != '-';
}

}  // namespace

void write_instrumentation(const std::filesystem::path& directory) {
  const auto write = [&directory](const char* relative, const char* data, std::size_t size) {
    const auto path = directory / relative;
    std::error_code error;
    std::filesystem::create_directories(path.parent_path(), error);
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file.write(data, static_cast<std::streamsize>(size));
    file.close();
    if (error || !file) throw RunError("cannot write the instrumentation to " + path.string() + " (is the temp dir full?)");
  };
  for (const auto& embedded : kInstrumentationFiles) {
    write(embedded.path, embedded.source, std::char_traits<char>::length(embedded.source));
  }
  // The native launch counter, where the build had Python headers: the probe falls back to
  // counting in Python when the measured interpreter cannot load it.
  for (const auto& native : kNativeFiles) {
    write(native.path, reinterpret_cast<const char*>(native.data), native.size);
  }
}

LaunchSpec inject(std::vector<std::string> argv, std::map<std::string, std::string> environment,
                  const std::map<std::string, std::string>& variables, const std::string& probe_dir) {
  LaunchSpec spec;
  for (const auto& [name, value] : variables) environment[name] = value;

  if (argv.empty() || !is_env_program(argv.front())) {
    environment["PYTHONPATH"] = prepend_path(probe_dir, environment.count("PYTHONPATH") ? environment["PYTHONPATH"] : "");
    spec.argv = std::move(argv);
    spec.environment = std::move(environment);
    return spec;
  }

  // `env [OPTIONS] [NAME=VALUE]... PROGRAM`: find the assignments env will apply.
  bool clears_environment = false;
  std::optional<std::size_t> python_path_token;
  std::size_t index = 1;
  for (; index < argv.size(); ++index) {
    const std::string& token = argv[index];
    if (token == "-i" || token == "--ignore-environment" || token == "-") {
      clears_environment = true;
    } else if (token == "-u" || token == "--unset" || token == "-C" || token == "--chdir") {
      ++index;  // these options take a value
    } else if (token.starts_with("-")) {
      continue;
    } else if (is_assignment(token)) {
      if (token.starts_with("PYTHONPATH=")) python_path_token = index;
    } else {
      break;  // the program
    }
  }
  const std::string inherited = environment.count("PYTHONPATH") && !clears_environment ? environment["PYTHONPATH"] : "";
  if (python_path_token) {
    std::string& token = argv[*python_path_token];
    token = "PYTHONPATH=" + prepend_path(probe_dir, token.substr(std::string("PYTHONPATH=").size()));
  } else if (clears_environment) {
    argv.insert(argv.begin() + static_cast<std::ptrdiff_t>(index), "PYTHONPATH=" + probe_dir);
  } else {
    environment["PYTHONPATH"] = prepend_path(probe_dir, inherited);
  }
  if (clears_environment) {
    // env -i drops our variables too; hand them over as assignments before the program.
    for (auto it = variables.rbegin(); it != variables.rend(); ++it) {
      argv.insert(argv.begin() + static_cast<std::ptrdiff_t>(index), it->first + "=" + it->second);
    }
  }
  spec.argv = std::move(argv);
  spec.environment = std::move(environment);
  return spec;
}

}  // namespace wcp::instrument
