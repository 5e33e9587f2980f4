#pragma once
// Whether the module hashes survive another process and another checkout path (issue 31): the
// outcome of the extra passes `measure` runs when a hash varied, or when asked
// (`--stable-hashes`, budget `stable_hashes`). Each pass is one run of the command in a private
// kernel cache of the experiments' own; their identities ("<module> <hash>") are compared.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wcp {

// What made a module's hash change, as the experiments told it apart.
enum class HashCause {
  stable,            // the same identity in every pass
  python_hash_seed,  // the same with one PYTHONHASHSEED twice, another with another seed
  checkout_path,     // the same across seeds, another from a copy of the working directory elsewhere
  per_run,           // changes even with the seed and the path fixed: data, time or randomness
};

std::string to_string(HashCause cause);
// A module name with a trailing "_<8 or 16 hex>" (a function Warp named from a hash of its
// source, a module="unique" kernel) as "<stem>_*", so the same module under another name in
// another process is compared with itself; other names unchanged.
std::string module_group(const std::string& name);
std::optional<HashCause> hash_cause_from_string(std::string_view text);

// One experiment pass.
struct HashExperimentPass {
  std::string name;  // "seed 0", "seed 0 again", "seed 1", "relocated"
  std::string seed;  // the PYTHONHASHSEED it ran with
  bool relocated = false;
  bool ok = false;
  double wall_ms = 0.0;
  std::string failure;  // plain words when !ok
  // Its distinct "<module> <hash>", sorted; absent when its loads were not observed.
  std::optional<std::vector<std::string>> identities;
  bool operator==(const HashExperimentPass&) const = default;
};

// One module (a group of names that differ only in a trailing hex suffix) whose identity the
// experiments moved.
struct ModuleHashStability {
  std::string module;  // as the first pass named it
  HashCause cause = HashCause::stable;
  std::vector<std::string> evidence;  // what each pass built, in plain words
  // The Warp release that stopped naming this module from Python's hash() ("1.17"), when its
  // name shows a function Warp made from a Python callable on an older Warp; "" otherwise.
  std::string fixed_in_warp;
  bool operator==(const ModuleHashStability&) const = default;
};

struct HashStability {
  std::string trigger;  // "hash_varied" (what varied is in `varied`) or "asked"
  std::vector<std::string> varied;
  std::vector<HashExperimentPass> passes;
  double cost_ms = 0.0;  // wall time of the passes and the copy
  // Where the relocated pass ran, and why it did not when it did not.
  std::string relocated_to;
  std::string relocation_skipped;
  std::optional<double> copied_bytes;
  // Files of the original working directory the relocated pass still loaded kernels from (a
  // venv or an editable install inside it, an absolute path in the code): the experiment then
  // proves less.
  std::vector<std::string> original_path_files;
  std::vector<ModuleHashStability> modules;  // only the modules that moved
  // true: every pass ran and no identity moved; false: one moved; absent: not decided (a pass
  // failed or the relocation was skipped, and nothing moved in the passes that ran).
  std::optional<bool> stable;
  bool operator==(const HashStability&) const = default;
};

}  // namespace wcp
