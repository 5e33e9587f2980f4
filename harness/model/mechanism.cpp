#include "model/mechanism.h"

#include <array>

namespace wcp {
namespace {

// One row per Mechanism enumerator, in enum order (checked below).
constexpr std::array<MechanismInfo, 21> kCatalogue{{
    {Mechanism::late_kernel, "CS-1", "Kernel defined after its module loaded",
     "cs-1-kernel-defined-after-its-module-loaded",
     "Define (import) every kernel of the module before its first launch, so the module is built once.",
     "Kernels created from data at run time cannot be hoisted; give them their own module (module=\"unique\" or a "
     "separate Python module) so they do not rebuild the others.",
     FixEffect::keeps_behaviour,
     "the same kernels are built with the same code and launched the same way; only when they are defined moves"},
    {Mechanism::cache_not_reused, "CS-2", "Kernel cache not reused", "cs-2-kernel-cache-not-reused",
     "Leave warp.config.kernel_cache_dir, cache_kernels and the kernel cache alone in the application; point "
     "WARP_CACHE_PATH at a persistent directory instead of clearing or replacing the cache.",
     "In CI or containers the cache must also be persisted between jobs (cache the directory), or every job starts "
     "cold regardless of the application.",
     FixEffect::keeps_behaviour,
     "the cache holds the same builds Warp would make again; results do not depend on where it lives"},
    {Mechanism::late_option, "CS-3", "Module options set after load", "cs-3-module-options-set-after-load",
     "Call wp.set_module_options(...) at the top of the Python module, before the first launch.",
     "If two option values are really needed, put the kernels in two modules: each is built once.",
     FixEffect::changes_behaviour,
     "launches made before the late write now run with the new option value; if those early launches need the old "
     "value, put their kernels in a module of their own instead, which keeps behaviour"},
    {Mechanism::granular_modules, "CS-4", "Module boundaries too granular", "cs-4-module-boundaries-too-granular",
     "Put the kernels of one feature in fewer Python modules, so Warp builds one module instead of several.",
     "Merging couples rebuilds: a change to one kernel rebuilds the merged module. Keep kernels that churn (CS-1/CS-6) "
     "or that only some programs use in their own module.",
     FixEffect::keeps_behaviour,
     "the same kernels with the same options and block_dim, built in one module instead of several"},
    {Mechanism::block_dim_spread, "CS-5", "One module built at several CUDA block_dims",
     "cs-5-one-module-built-at-several-cuda-block_dims",
     "Give each stable block_dim its own module (kernels always launched at 128 in one module, at 256 in another), "
     "and keep kernels whose block_dim varies at run time in a small module of their own. Do not change the "
     "block_dims the program launches with: that changes the workload.",
     "Tile kernels need the block_dim they were written for; each distinct value is a real variant of their module.",
     FixEffect::keeps_behaviour,
     "every kernel keeps the block_dim it is launched with; only which module holds it changes"},
    {Mechanism::late_generic, "CS-6", "Generic kernel instance added after load",
     "cs-6-generic-kernel-instance-added-after-load",
     "Declare every instance up front with wp.overload(kernel, {...}) before the first launch.",
     "Instances that depend on run-time data cannot be listed up front; keep such kernels in a small module of "
     "their own so a new instance rebuilds only that.",
     FixEffect::keeps_behaviour, "the same overloads are built, declared before the first launch instead of on demand"},
    {Mechanism::lto_dominated, "CS-7", "LTO-dominated build", "cs-7-lto-dominated-build",
     "Check backward first: an adjoint of a MathDx tile kernel links its own LTO, so turn enable_backward off for "
     "modules nothing differentiates (CS-10). Then keep the LTO-using tile/MathDx kernels in their own module so other "
     "kernels do not pay the link, and reuse one set of tile shapes so fewer LTO variants are produced. Where "
     "run-time speed of those tile operations matters less than start-up, the module options (or warp.config) "
     "enable_mathdx_gemm / enable_mathdx_fft / enable_mathdx_solver = False use Warp's non-MathDx fallbacks and no LTO "
     "(Warp 1.10 and later).",
     "The LTO kernels themselves still need LTO; the saving is in what shares their module. The MathDx toggles trade "
     "kernel speed for compile time (the FFT fallback handles power-of-two sizes only): measure run time too.",
     FixEffect::changes_behaviour,
     "enable_backward = False removes gradients of those kernels, and the MathDx toggles change which implementation "
     "runs (speed, and FFT sizes the fallback supports); moving kernels between modules keeps behaviour"},
    {Mechanism::cpu_load_race, "CS-8", "Concurrent first CPU load race", "cs-8-concurrent-first-cpu-load-race",
     "Load modules that can target the CPU with max_workers <= 1 (wp.force_load(..., max_workers=1) or "
     "warp.config.load_module_max_workers = 1), or load them once before starting threads.",
     "Parallel loading stays useful for CUDA-only loads (CS-13); restrict it only where the CPU is a possible device.",
     FixEffect::keeps_behaviour, "the same modules are loaded, one at a time instead of at once"},
    {Mechanism::unique_modules, "CS-9", "module=\"unique\" on stable kernels", "cs-9-moduleunique-on-stable-kernels",
     "Drop module=\"unique\" from kernels whose code does not change at run time, so they share their Python module's "
     "Warp module and build once together.",
     "module=\"unique\" is right for kernels generated at run time (it stops them rebuilding their neighbours, CS-1); "
     "keep it there.",
     FixEffect::keeps_behaviour,
     "the same kernel code is built, in its Python module's Warp module instead of one of its own"},
    {Mechanism::unused_backward, "CS-10", "Backward code nobody uses", "cs-10-backward-code-nobody-uses",
     "In the application's entry point set wp.config.enable_backward = False right after `import warp` (before any "
     "kernel is defined), or wp.set_module_options({\"enable_backward\": False}) at the top of the Python module "
     "before "
     "its first load. For a module named explicitly (@wp.kernel(module=...)) set it on that module: "
     "wp.get_module(\"<name>\").options[\"enable_backward\"] = False before its first load (set_module_options without "
     "a module acts on the calling Python module, not on the named one).",
     "Do not disable it inside a library: that narrows every consumer, including those that differentiate. Leave it "
     "on wherever a Tape or adjoint launch may use the kernels. A kernel's own setting "
     "(@wp.kernel(enable_backward=...)) "
     "wins over the module's both ways; tile kernels often carry one (some tile operations require it off), so check "
     "the decorator before expecting the module option to reach them.",
     FixEffect::changes_behaviour,
     "enable_backward = False changes the set of kernels built: no adjoint code, so nothing can differentiate these "
     "kernels afterwards"},
    {Mechanism::unroll_budget, "CS-11", "Unroll budget inflating generated source",
     "cs-11-unroll-budget-inflating-generated-source",
     "If the big kernels unroll loops, try a lower max_unroll for that module (wp.set_module_options({\"max_unroll\": "
     "N})) and measure both compile and run time.",
     "On current evidence max_unroll is a source-size and run-time knob, not a cold-start fix: the compile time barely "
     "moves while kernel speed can drop.",
     FixEffect::changes_behaviour,
     "max_unroll changes the generated code: loops unrolled to a different bound, which moves kernel speed (results "
     "stay the same)"},
    {Mechanism::precompiled_header, "CS-12", "Precompiled header", "cs-12-precompiled-header",
     "Leave warp.config.use_precompiled_headers at True when a process builds several modules: every build after the "
     "first reuses the header.",
     "The first build of each process pays to create the header; a process that builds one or two modules may pay "
     "more for the header than it saves, and then turning it off is the faster setting. Verify either way with `ab`.",
     FixEffect::keeps_behaviour, "the header only speeds up building; the kernels are the same with or without it"},
    {Mechanism::serial_builds, "CS-13", "Independent modules built one at a time",
     "cs-13-independent-modules-built-one-at-a-time",
     "Load the modules this program launches up front in parallel: wp.load_module(module, device=..., max_workers=N) "
     "or wp.force_load(device, modules=[...], max_workers=N) before the first launch, on the devices and at the "
     "block_dims the program launches with (max_workers exists from Warp 1.10; earlier versions load one at a "
     "time).",
     "Preloading traps: modules=None (or load_module's recursive=True) loads every registered module, including ones "
     "this program never launches, and device=None loads on every device, the CPU included; a preload at another "
     "block_dim than the launches use adds builds instead of moving them; a preload wrapped in try/except that "
     "swallows a failure is paid again by the first launch; a ceiling near 1x (one module dominates) means nothing to "
     "gain. Needs as many free cores as workers; never use max_workers > 1 for loads that can target the CPU (CS-8).",
     FixEffect::keeps_behaviour,
     "the same modules on the same devices and block_dims, built before the first launch instead of at it"},
    {Mechanism::closure_churn, "closure-churn", "Kernel factory re-creates kernels after load (closure churn)",
     "closure-churn-kernels-re-created-from-one-source-line",
     "Create every kernel the factory will need before the first launch, or make the varying value a kernel "
     "parameter so one module-scope kernel serves all calls; cache factory results by argument.",
     "If the captured value really changes the generated code (types, loop bounds), each variant is a real build: "
     "hoisting only moves all of them into one build.",
     FixEffect::keeps_behaviour,
     "the same kernel variants, created before the first launch (or one kernel taking the value as a parameter)"},
    {Mechanism::identity_churn, "identity-churn", "Module rebuilt with a new hash (cause not recorded)",
     "cs-1-kernel-defined-after-its-module-loaded",
     "Re-measure with the instrumentation attached (a Python entry point) to see which kernel, option or overload "
     "changed; then define it before the first launch.",
     "Without per-load snapshots the cause (CS-1, CS-3 or CS-6) cannot be told apart.", FixEffect::keeps_behaviour,
     "re-measuring changes nothing in the program"},
    {Mechanism::config_deadline, "config-deadline", "warp.config option set after its module was created",
     "config-deadline-warpconfig-option-set-after-its-module-was-created",
     "Set the warp.config value right after `import warp`, before the first @wp.kernel of the module (or set it per "
     "module with wp.set_module_options before the first launch).",
     "A global set before import affects every module created later, libraries included; to change one module only, "
     "use its module options.",
     FixEffect::changes_behaviour,
     "the module is then built with the value the program set, which it never had before: see what that option "
     "changes"},
    {Mechanism::parallel_cold_misses, "parallel-cold-misses", "The same module compiled at once in several processes",
     "parallel-cold-misses-the-same-module-compiled-at-once-in-several-processes",
     "Build once before fanning out: load the modules in the parent before it starts its workers (one launch, or "
     "wp.load_module(...) with max_workers <= 1 on the CPU), or warm the kernel cache in a CI step before the parallel "
     "job; the workers then find every module cached.",
     "Concurrent first loads of modules that can target the CPU are unsafe (CS-8): build them once, serially. With "
     "spawn, kernels in the main script are compiled under another module name in the workers (see "
     "main-script-twice): move them into an importable module first.",
     FixEffect::keeps_behaviour, "the same modules, built once before the workers start instead of in each of them"},
    {Mechanism::main_script_twice, "main-script-twice",
     "The main script's kernels compiled twice (__main__ and __mp_main__)",
     "main-script-twice-the-main-scripts-kernels-compiled-twice",
     "Move the kernels out of the main script into an importable module: the parent and its multiprocessing workers "
     "then load one module name, and the workers reuse the parent's cache entry.",
     "Only multiprocessing's spawn and forkserver start methods re-import the main script as __mp_main__; with fork "
     "the workers inherit the parent's loaded modules.",
     FixEffect::keeps_behaviour, "the same kernels, loaded under one module name in the parent and its workers"},
    {Mechanism::never_launched, "never-launched", "Kernels compiled that this run never launched",
     "never-launched-kernels-compiled-that-this-run-never-launched",
     "Move the kernels this program does not launch into a Python module of their own (or give them a module of "
     "their own with module=wp.get_module(\"<name>\")), so that module is built only by the programs that launch "
     "them.",
     "Other workloads (tests, other scenes, other options) may launch them: move them, never delete them on one run's "
     "evidence. The moved kernels then pay their own module's fixed cost wherever they are launched.",
     FixEffect::keeps_behaviour,
     "the kernels this program launches are built as before; the others move, not disappear"},
    {Mechanism::option_never_arrived, "option-never-arrived", "Option set but never reached a module build",
     "option-never-arrived-option-set-but-never-reached-a-module-build",
     "Remove the write: it reached no build, so the program behaves the same without it. Only if it was meant to "
     "apply, set it on the module that actually builds, before its first load (wp.set_module_options({...}, "
     "module=\"<that module>\") for a named module, module_options={...} on a module=\"unique\" kernel, or "
     "wp.config.<option> at the entry point before the imports for an option modules copy): that changes what the "
     "option changes.",
     "A warp.config value set at the entry point applies to every module created later, libraries included; to change "
     "one module only, use its module options. Options Warp writes itself are not the application's and are never "
     "reported.",
     FixEffect::keeps_behaviour,
     "removing a write that reached no build keeps this run exactly as it is; making it apply instead changes what "
     "that option changes"},
    {Mechanism::changed_reference, "changed-reference", "A loaded kernel's code names something that changed",
     "changed-reference-a-loaded-kernels-code-names-something-that-changed",
     "Keep what a kernel's code names fixed once its module has loaded: do not rebind a global or function the "
     "kernel names, rename a global that shares a kernel argument's name, and define every overload of its functions "
     "before the first launch.",
     "A module global that shares a kernel argument's name is hashed as a constant of the kernel (Warp resolves the "
     "name before it sees the argument): rename one of them. A value that must change is compiled in, a build per "
     "value; as a kernel parameter it would build once, but that changes the kernel's signature and so its launches.",
     FixEffect::keeps_behaviour,
     "the kernel's code and its launches are the same; only a name no longer resolves to a value that changes"},
}};

constexpr bool in_enum_order() {
  for (std::size_t i = 0; i < kCatalogue.size(); ++i) {
    if (static_cast<std::size_t>(kCatalogue[i].id) != i) return false;
  }
  return true;
}
static_assert(in_enum_order(), "kCatalogue rows must follow the Mechanism enum order");

}  // namespace

std::span<const MechanismInfo> mechanism_catalogue() {
  return kCatalogue;
}

const MechanismInfo& info(Mechanism mechanism) {
  return kCatalogue[static_cast<std::size_t>(mechanism)];
}

std::string_view code(Mechanism mechanism) {
  return info(mechanism).code;
}

std::optional<Mechanism> mechanism_from_code(std::string_view text) {
  for (const auto& entry : kCatalogue) {
    if (entry.code == text) return entry.id;
  }
  return std::nullopt;
}

std::string doc_link(Mechanism mechanism) {
  return "docs/mechanisms.md#" + std::string(info(mechanism).anchor);
}

}  // namespace wcp
