#pragma once
// A module's generated C++/CUDA source as Warp writes it into its cache entry
// (`wp_<module>_<hash7>/wp_<module>_<hash7>.cpp` or `.cu`; Warp 1.9 and 1.19 alike), split so two
// builds can be compared kernel by kernel. Warp emits a header, the structs and @wp.func
// functions, then each kernel's code in one run: on the CPU `struct wp_args_<name>` and the
// `<name>_cpu_kernel_forward`, `_cpu_forward_tasks`, `_cpu_forward_dispatch`, `_cpu_forward`
// functions (their `_backward` twins with backward code); on CUDA `<name>_cuda_kernel_forward`
// (and `_backward`). `<name>` is the kernel key and the first 8 hex of its content hash
// (the key alone with strip_hash).
//
// What is compared is normalised: the hash suffix becomes the bare key, and what moves with the
// Python file rather than the code (`<L 12>` line markers, `#line` directives, `// file:line`
// comments, blank lines) is dropped, so a kernel that only moved in its file reads the same.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wcp::measure {

struct GeneratedSource {
  // Each kernel's normalised code by key; a key can have more than one kernel (a closure
  // re-made with another captured value keeps its key), hence the list, sorted.
  std::map<std::string, std::vector<std::string>> kernel_forward;
  std::map<std::string, std::vector<std::string>> kernel_backward;  // empty code: none generated
  // @wp.func code by its generated name: "helper_0", and "adj_helper_0" for its adjoint, which
  // only backward code has.
  std::map<std::string, std::string> functions;
  std::string shared;  // the rest before the kernels: header, preamble, structs
  // What the options leave in the source.
  std::optional<int> block_dim;  // `#define WP_TILE_BLOCK_DIM n`
  bool backward = false;         // backward code was generated (enable_backward)
  bool line_directives = false;  // `#line` directives (lineinfo, or mode "debug")
};

GeneratedSource parse_generated_source(std::string_view text);

// Whether a generated function is an adjoint ("adj_helper_0"): part of the backward code.
bool is_adjoint_function(const std::string& generated_name);
// "helper" for the generated "helper_0" and "adj_helper_0" (Warp numbers a function's overloads).
std::string function_display_name(const std::string& generated_name);

}  // namespace wcp::measure
