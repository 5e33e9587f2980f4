#include "analysis/finding_facts.h"

#include "analysis/finding.h"
#include "io/name_table.h"

namespace wcp::analysis {
namespace {

constexpr NameTable<CauseStatus, 3> kCauseStatuses{{
    {CauseStatus::confirmed, "confirmed"},
    {CauseStatus::inferred, "inferred"},
    {CauseStatus::cannot_tell, "this run cannot tell"},
}};

constexpr NameTable<CostKind, 3> kCostKinds{{
    {CostKind::measured, "measured"},
    {CostKind::estimated, "estimated"},
    {CostKind::unavailable, "unavailable"},
}};

constexpr NameTable<FixKind, 15> kFixKinds{{
    {FixKind::as_written, "as-written"},
    {FixKind::define_before_first_launch, "define-before-first-launch"},
    {FixKind::create_before_first_launch, "create-before-first-launch"},
    {FixKind::set_module_options_early, "set-module-options-early"},
    {FixKind::declare_overloads_early, "declare-overloads-early"},
    {FixKind::rename_shadowed_argument, "rename-shadowed-argument"},
    {FixKind::keep_value_fixed, "keep-value-fixed"},
    {FixKind::keep_function_value_fixed, "keep-function-value-fixed"},
    {FixKind::add_overloads_early, "add-overloads-early"},
    {FixKind::define_function_early, "define-function-early"},
    {FixKind::remove_option_write, "remove-option-write"},
    {FixKind::for_maintainers, "for-maintainers"},
    {FixKind::set_before_deadline, "set-before-deadline"},
    {FixKind::set_at_entry_point, "set-at-entry-point"},
    {FixKind::drop_unique, "drop-unique"},
}};

constexpr NameTable<EventKind, 17> kEventKinds{{
    {EventKind::as_written, "as-written"},
    {EventKind::kernel_added_after_load, "kernel-added-after-load"},
    {EventKind::kernel_re_created_after_load, "kernel-re-created-after-load"},
    {EventKind::option_changed_after_load, "option-changed-after-load"},
    {EventKind::generic_instance_added, "generic-instance-added"},
    {EventKind::option_reached_no_build, "option-reached-no-build"},
    {EventKind::backward_never_launched, "backward-never-launched"},
    {EventKind::setting_after_module_copied, "setting-after-module-copied"},
    {EventKind::unique_kernels_stable, "unique-kernels-stable"},
    {EventKind::compiled_at_once, "compiled-at-once"},
    {EventKind::main_script_compiled_twice, "main-script-compiled-twice"},
    {EventKind::kernels_never_launched, "kernels-never-launched"},
    {EventKind::built_one_at_a_time, "built-one-at-a-time"},
    {EventKind::kernels_not_found_after_load, "kernels-not-found-after-load"},
    {EventKind::built_at_several_block_dims, "built-at-several-block-dims"},
    {EventKind::modules_built_separately, "modules-built-separately"},
    {EventKind::rebuilt_cause_not_recorded, "rebuilt-cause-not-recorded"},
}};

}  // namespace

std::string_view to_string(CauseStatus status) {
  return name_of(kCauseStatuses, status);
}
std::string_view to_string(CostKind kind) {
  return name_of(kCostKinds, kind);
}
std::string_view to_string(FixKind kind) {
  return name_of(kFixKinds, kind);
}
std::string_view to_string(EventKind kind) {
  return name_of(kEventKinds, kind);
}

CostFact Finding::cost() const {
  if (!cost_ms) return {CostKind::unavailable, std::nullopt, cost_basis};
  return {cost_estimated ? CostKind::estimated : CostKind::measured, cost_ms, cost_basis};
}

}  // namespace wcp::analysis
