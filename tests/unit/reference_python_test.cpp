#include "reference/reference_python.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>

namespace wcp::reference {
namespace {

using Command = std::vector<std::string>;

// Sets WCP_PYTHON for one test and puts back what was there, so the fallback is deterministic
// whatever environment ctest runs in.
class ScopedWcpPython {
 public:
  explicit ScopedWcpPython(const char* value) {
    if (const char* old = std::getenv("WCP_PYTHON")) saved_ = old;
    if (value == nullptr) {
      ::unsetenv("WCP_PYTHON");
    } else {
      ::setenv("WCP_PYTHON", value, 1);
    }
  }
  ~ScopedWcpPython() {
    if (saved_) {
      ::setenv("WCP_PYTHON", saved_->c_str(), 1);
    } else {
      ::unsetenv("WCP_PYTHON");
    }
  }
  ScopedWcpPython(const ScopedWcpPython&) = delete;
  ScopedWcpPython& operator=(const ScopedWcpPython&) = delete;

 private:
  std::optional<std::string> saved_;
};

TEST(CommandInterpreter, APythonFirstWordIsTheInterpreter) {
  EXPECT_EQ(command_interpreter({"python", "app.py"}), "python");
  EXPECT_EQ(command_interpreter({"python3.12", "-m", "pkg.app"}), "python3.12");
  EXPECT_EQ(command_interpreter({"/usr/bin/python3", "app.py"}), "/usr/bin/python3");
  EXPECT_EQ(command_interpreter({"/work/proj/.venv/bin/python", "app.py"}), "/work/proj/.venv/bin/python");
  EXPECT_EQ(command_interpreter({".venv/bin/python", "app.py"}), ".venv/bin/python");
}

TEST(CommandInterpreter, EnvRunsTheInterpreterAfterItsAssignments) {
  EXPECT_EQ(command_interpreter({"env", "VAR=1", "python", "app.py"}), "python");
  EXPECT_EQ(command_interpreter({"/usr/bin/env", "A=1", "PYTHONPATH=lib:x=y", ".venv/bin/python3", "app.py"}),
            ".venv/bin/python3");
  EXPECT_EQ(command_interpreter({"env", "-i", "-u", "HOME", "--unset=TMP", "-uUSER", "B=2", "python3", "a.py"}),
            "python3");
  EXPECT_EQ(command_interpreter({"env", "--", "python3", "a.py"}), "python3");
}

TEST(CommandInterpreter, AnythingElseHasNone) {
  EXPECT_EQ(command_interpreter({}), std::nullopt);
  EXPECT_EQ(command_interpreter({"env", "VAR=1", "./run.sh"}), std::nullopt);  // env, but no interpreter
  EXPECT_EQ(command_interpreter({"env", "VAR=1"}), std::nullopt);              // env printing its environment
  EXPECT_EQ(command_interpreter({"bash", "-c", "python app.py"}), std::nullopt);
  EXPECT_EQ(command_interpreter({"uv", "run", "python", "app.py"}), std::nullopt);
  EXPECT_EQ(command_interpreter({"/opt/python/bin/app", "x"}), std::nullopt);  // "python" in a folder only
  // An env option that changes where the program runs: not modelled, so not guessed.
  EXPECT_EQ(command_interpreter({"env", "-C", "sub", "python", "app.py"}), std::nullopt);
}

TEST(ReferencePython, AnExplicitInterpreterWins) {
  const ScopedWcpPython wcp_python("/from/env/python");
  EXPECT_EQ(reference_python_for(std::string("/given/python"), {"/venv/bin/python", "app.py"}, "/proj"),
            "/given/python");
}

TEST(ReferencePython, TheCommandsInterpreterComesNext) {
  const ScopedWcpPython wcp_python("/from/env/python");
  EXPECT_EQ(reference_python_for(std::nullopt, {"/venv/bin/python", "app.py"}, "/proj"), "/venv/bin/python");
  // Relative: where the command runs, not where the tool was started (the reference runs elsewhere).
  EXPECT_EQ(reference_python_for(std::nullopt, {".venv/bin/python", "app.py"}, "/proj"), "/proj/.venv/bin/python");
  EXPECT_EQ(reference_python_for(std::nullopt, {"env", "VAR=1", "../v/bin/python3", "app.py"}, "/proj/sub"),
            "/proj/sub/../v/bin/python3");
  // A bare name is found on PATH, as the command's own is.
  EXPECT_EQ(reference_python_for(std::nullopt, {"python3.12", "app.py"}, "/proj"), "python3.12");
}

TEST(ReferencePython, WithoutOneItIsWcpPythonThenPython3) {
  {
    const ScopedWcpPython wcp_python("/from/env/python");
    EXPECT_EQ(reference_python_for(std::nullopt, {"uv", "run", "python", "app.py"}, "/proj"), "/from/env/python");
    EXPECT_EQ(reference_python_for(std::nullopt, {"bash", "-c", "python app.py"}, "/proj"), "/from/env/python");
  }
  const ScopedWcpPython unset(nullptr);
  EXPECT_EQ(reference_python_for(std::nullopt, {"env", "VAR=1", "./run.sh"}, "/proj"), "python3");
}

}  // namespace
}  // namespace wcp::reference
