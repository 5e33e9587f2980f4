#include "instrument/injection.h"

#include <gtest/gtest.h>

namespace wcp::instrument {
namespace {

const std::map<std::string, std::string> kVariables{{"WARP_CACHE_PATH", "/scratch/cache"}};

TEST(ProbeInjection, PrependsToInheritedPythonPath) {
  const auto spec = inject({"python", "app.py"}, {{"PYTHONPATH", "/user/lib"}}, kVariables, "/probe");
  EXPECT_EQ(spec.environment.at("PYTHONPATH"), "/probe:/user/lib");
  EXPECT_EQ(spec.environment.at("WARP_CACHE_PATH"), "/scratch/cache");
  EXPECT_EQ(spec.argv, (std::vector<std::string>{"python", "app.py"}));
}

TEST(ProbeInjection, SetsPythonPathWhenAbsent) {
  const auto spec = inject({"python", "app.py"}, {}, kVariables, "/probe");
  EXPECT_EQ(spec.environment.at("PYTHONPATH"), "/probe");
}

TEST(ProbeInjection, MergesIntoTheCommandsOwnToken) {
  const auto spec = inject({"env", "FOO=1", "PYTHONPATH=src", "python", "-m", "app"}, {{"PYTHONPATH", "/ignored"}},
                           kVariables, "/probe");
  EXPECT_EQ(spec.argv, (std::vector<std::string>{"env", "FOO=1", "PYTHONPATH=/probe:src", "python", "-m", "app"}));
}

TEST(ProbeInjection, EmptyTokenValue) {
  const auto spec = inject({"/usr/bin/env", "PYTHONPATH=", "python"}, {}, kVariables, "/probe");
  EXPECT_EQ(spec.argv[1], "PYTHONPATH=/probe");
}

TEST(ProbeInjection, EnvWithoutPythonPathTokenUsesEnvironment) {
  const auto spec =
      inject({"env", "A=b", "python", "PYTHONPATH=notatoken"}, {{"PYTHONPATH", "/x"}}, kVariables, "/probe");
  EXPECT_EQ(spec.argv[3], "PYTHONPATH=notatoken");  // an argument of python, not of env
  EXPECT_EQ(spec.environment.at("PYTHONPATH"), "/probe:/x");
}

TEST(ProbeInjection, EnvIgnoreEnvironmentGetsVariablesAsTokens) {
  const auto spec = inject({"env", "-i", "python", "app.py"}, {{"PYTHONPATH", "/x"}}, kVariables, "/probe");
  EXPECT_EQ(spec.argv, (std::vector<std::string>{"env", "-i", "WARP_CACHE_PATH=/scratch/cache", "PYTHONPATH=/probe",
                                                 "python", "app.py"}));
}

TEST(ProbeInjection, ShellMetacharactersStayLiteral) {
  const auto spec = inject({"python", "-c", "print(1); $(rm -rf /) `x`"}, {}, kVariables, "/probe");
  EXPECT_EQ(spec.argv[2], "print(1); $(rm -rf /) `x`");
}

}  // namespace
}  // namespace wcp::instrument
