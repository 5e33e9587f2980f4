// option-never-arrived and config-deadline: every option the application set gets a receipt
// (facts/option_receipts.h: the builds it reached, or why none), and a write of the
// application's that reached nothing is a finding with its call site and the fix. One rule
// decides both mechanisms: config-deadline is the receipt of a warp.config write that modules
// copy at creation, set after an application module was created.
//
// Quiet by design: a write that reached what it targeted is a receipt line, never a finding; a
// write whose target built nothing in this run (a library module the program did not use)
// changed nothing and is not a mistake; Warp's own writes are context.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <string_view>

#include "analysis/deadlines.h"
#include "analysis/diagnose_support.h"

namespace wcp::analysis {
namespace {

std::string site_text(const OptionWrite& write) {
  return write.site ? where(*write.site) : "an unknown line";
}

std::optional<SourceSite> site_of(const OptionWrite& write) {
  if (!write.site) return std::nullopt;
  return site_at(write.site->file, write.site->line, write.site->function);
}

std::string build_text(const MissedModule& miss) {
  return miss.build ? fmt::format("{} ({})", miss.module, miss.build->hash) : miss.module;
}

bool of_application(const MissedModule& miss) {
  return !miss.dependency;
}

// The application modules a warp.config write missed because they existed before it.
std::vector<const MissedModule*> deadline_misses(const OptionReceipt& receipt) {
  std::vector<const MissedModule*> misses;
  if (receipt.write.api != OptionApi::config || receipt.write.by_warp) return misses;
  for (const auto& miss : receipt.missed) {
    if (of_application(miss) && miss.reason == MissReason::set_after_module_created) misses.push_back(&miss);
  }
  return misses;
}

// A write of the application's that reached nothing a build of its own would have taken, and
// that config-deadline does not already explain.
bool never_arrived(const OptionReceipt& receipt) {
  if (receipt.write.by_warp || receipt.outcome != ReceiptOutcome::reached_nothing) return false;
  const auto& missed = receipt.missed;
  const bool any_application = std::any_of(missed.begin(), missed.end(), [](const MissedModule& miss) {
    return of_application(miss) || miss.reason == MissReason::no_build_after;
  });
  if (!any_application) return false;
  const auto deadline = deadline_misses(receipt);
  const auto application = std::count_if(missed.begin(), missed.end(), of_application);
  return deadline.empty() || static_cast<std::ptrdiff_t>(deadline.size()) < application;
}

std::string copied_alternative(const OptionWrite& write, bool copied) {
  if (!copied) return "";
  return fmt::format(" (or, for every module created later, wp.config.{} = {} at the entry point before the imports)",
                     write.key, write.value);
}

// "Warp module m never loaded: the kernels of Python module m (k) were built in <which> module(s) u".
std::string never_loaded(const OptionWrite& write, const MissedModule& miss, std::string_view which) {
  return fmt::format("Warp module {} never loaded: the kernels of Python module {} ({}) were built in {} module(s) {}",
                     write.target, write.target, fmt::join(miss.kernels, ", "), which, fmt::join(miss.elsewhere, ", "));
}

// What went wrong, in the words of this run, and the fix for exactly that.
void explain(const OptionReceipt& receipt, const MissedModule& miss, bool copied, Finding& finding) {
  const OptionWrite& write = receipt.write;
  switch (miss.reason) {
    case MissReason::kernels_in_unique_modules:
      finding.evidence.push_back(never_loaded(write, miss, "module=\"unique\"") +
                                 fmt::format(", which take none of {}'s options", write.target));
      finding.fix = fmt::format(
          "Give the option to the kernels that build: @wp.kernel(module=\"unique\", module_options={{\"{}\": {}}}) "
          "where {} {} made, so each unique module is built with it{}.",
          write.key, write.value, fmt::join(miss.kernels, ", "), miss.kernels.size() == 1 ? "is" : "are",
          copied_alternative(write, copied));
      break;
    case MissReason::kernels_in_named_modules:
      finding.evidence.push_back(never_loaded(write, miss, "the explicitly named"));
      finding.fix = fmt::format(
          "Set it on the module that builds, before its first load: wp.set_module_options({{\"{}\": {}}}, "
          "module=\"{}\"){}.",
          write.key, write.value, miss.elsewhere.empty() ? write.target : miss.elsewhere.front(),
          copied_alternative(write, copied));
      break;
    case MissReason::set_after_last_load:
      finding.evidence.push_back(fmt::format(
          "set after the last build of {} (which holds {} = {}); the module was not built again, so the option "
          "changed nothing",
          build_text(miss), write.key, miss.held));
      finding.fix = fmt::format(
          "Set it before the module's first load (at the top of the Python module, before the first launch); set "
          "later it either changes nothing or costs a rebuild (CS-3).");
      break;
    case MissReason::overridden:
      finding.evidence.push_back(fmt::format("overridden before {} was built: {} at {} (the build holds {} = {})",
                                             miss.module.empty() ? write.target : build_text(miss),
                                             miss.by ? spelled(*miss.by) : "another write",
                                             miss.by ? site_text(*miss.by) : "?", write.key, miss.held));
      finding.fix = "drop the later write instead: the later one decides what the module is built with.";
      break;
    case MissReason::module_holds_own_value:
      finding.evidence.push_back(
          fmt::format("module {} holds its own {} = {}{}: the module's option, not warp.config, is what it builds with",
                      build_text(miss), write.key, miss.held,
                      miss.by ? fmt::format(" (set by {} at {})", spelled(*miss.by), site_text(*miss.by)) : ""));
      finding.fix = fmt::format(
          "Set it as a module option before the module's first load: wp.set_module_options({{\"{}\": {}}}) in the "
          "Python module (or module_options= on a module=\"unique\" kernel).",
          write.key, write.value);
      break;
    case MissReason::no_build_after:
      finding.evidence.push_back("no module was built after it in this process (or a process forked from it later)");
      finding.fix = fmt::format(
          "Set it before the first module is built: right after `import warp` at the entry point (a spawned worker "
          "process does not inherit it; set it where that process imports its kernels).");
      break;
    case MissReason::value_differs:
      finding.evidence.push_back(
          fmt::format("{} was built after it with {} = {}; the record does not say which write or default decided",
                      build_text(miss), write.key, miss.held));
      break;
    case MissReason::set_after_module_created:
    case MissReason::target_never_loaded:
      break;  // config-deadline's, and "nothing was built": never this finding's
  }
}

// Whose call the write is: the file of its line, else the module it targets.
ModuleOwnership owner_of_write(const OptionWrite& write, const CodeOwnership& ownership) {
  if (write.site && !write.site->file.empty()) return ownership.of_file(write.site->file);
  return ownership.of_module(write.api == OptionApi::config ? std::string() : write.target);
}

// A write in code the user does not own: a fact for its maintainers, never "remove it".
void for_its_maintainers(const OptionReceipt& receipt, const ModuleOwnership& owner, Finding& finding) {
  const OptionWrite& write = receipt.write;
  const std::string whose =
      owner.package
          ? owner.package->name + (owner.package->version.empty() ? std::string() : " " + owner.package->version)
          : std::string(owner.owner == Owner::warp ? "Warp" : "the package");
  finding.fix = fmt::format(
      "For the maintainers of {}: {} at {} reached no build in this program; nothing for you to change. Your "
      "own levers are at your entry point (`levers -- CMD` measures them).",
      whose, spelled(write), site_text(write));
  finding.facts.fix.kind = FixKind::for_maintainers;
  finding.facts.fix.package = whose;
  finding.fix_effect = FixEffect::keeps_behaviour;
  finding.behaviour = "nothing to change on your side";
}

Finding never_arrived_finding(const OptionReceipt& receipt, const std::set<std::string>& copied,
                              const CodeOwnership& ownership) {
  const OptionWrite& write = receipt.write;
  Finding finding = make_finding(Mechanism::option_never_arrived);
  finding.module = write.api == OptionApi::config ? "" : write.target;
  finding.owner = owner_of_write(write, ownership);
  finding.evidence.push_back(fmt::format("{} at {}{} reached no module build", spelled(write), site_text(write),
                                         receipt.repeats > 1 ? fmt::format(" ({} times)", receipt.repeats) : ""));
  for (const auto& miss : receipt.missed) {
    if (miss.dependency) continue;
    explain(receipt, miss, copied.contains(write.key), finding);
  }
  finding.cost_basis =
      "none measurable from this run: the build the option was meant to change was never built with it";
  // Removing a write that reached nothing is the one fix that keeps the program as it ran; making
  // it apply is a change of behaviour the user has to choose knowingly.
  const FixBehaviour applied = setting_option(write.key);
  std::string apply = finding.fix == info(Mechanism::option_never_arrived).fix ? std::string() : finding.fix;
  if (!apply.empty()) apply[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(apply[0])));
  finding.fix = fmt::format("Remove {} at {}: it reached no build, so the program behaves the same without it.{}",
                            spelled(write), site_text(write),
                            apply.empty() ? std::string()
                                          : fmt::format(" Only if it was meant to apply: {}{}", apply,
                                                        applied.effect == FixEffect::changes_behaviour
                                                            ? " That changes behaviour: " + applied.what + "."
                                                            : ""));
  const OptionChange written{write.key, std::nullopt, write.value, site_of(write)};
  finding.facts.event = EventKind::option_reached_no_build;
  finding.facts.options = {written};
  finding.facts.fix = fix_with<&FixAction::options>(FixKind::remove_option_write, std::vector<OptionChange>{written});
  finding.fix_effect = FixEffect::keeps_behaviour;
  finding.behaviour = fmt::format("removing the write keeps this run as it is; applying it instead: {}", applied.what);
  if (!finding.owner->users_to_change()) for_its_maintainers(receipt, *finding.owner, finding);
  return finding;
}

const ModuleEvent* build_of(const Report& report, const ModuleIdentity& identity) {
  for (const auto& event : report.module_events) {
    if (event.pass == Pass::cold && identity_of(event) == identity) return &event;
  }
  return nullptr;
}

void add_deadline_evidence(const Report& report, const OptionReceipt& receipt, const MissedModule& miss,
                           Finding& finding) {
  const OptionWrite& write = receipt.write;
  const std::string hash = miss.build ? miss.build->hash : "?";
  const std::string created =
      miss.created_at ? "when the module was created at " + where(*miss.created_at) : "when the module was created";
  finding.evidence.push_back(fmt::format(
      "module {} ({}): warp.config.{} = {} at load, but the module holds {} (copied {}, before the setting at {})",
      miss.module, hash, write.key, write.value, miss.held, created, site_text(write)));
  if (write.key != "enable_backward" || !miss.build) return;
  const ModuleEvent* event = build_of(report, *miss.build);
  if (event == nullptr) return;
  if (const ModuleSource* source = source_of(report, event->name, event->hash);
      source && source->backward_kernels > 0) {
    finding.evidence.push_back(fmt::format("module {}: {} backward entry point(s) still generated ({} bytes of source)",
                                           event->name, source->backward_kernels, source->source_bytes));
  }
}

// Moving several settings earlier changes what any of them changes.
FixBehaviour merged(FixBehaviour so_far, const FixBehaviour& next) {
  if (so_far.what.find(next.what) != std::string::npos) return so_far;
  if (so_far.what.empty()) return next;
  so_far.what += "; " + next.what;
  if (next.effect == FixEffect::changes_behaviour) so_far.effect = FixEffect::changes_behaviour;
  return so_far;
}

}  // namespace

void check_option_receipts(const Report& report, Diagnosis& out) {
  out.option_receipts = option_receipts(report);
  if (!out.option_receipts) {
    const std::string reason =
        !report.instrumentation.attached
            ? "the instrumentation did not attach: option writes are unknown"
            : "the report has no option record (the instrumentation could not hook option writes, or an older report)";
    not_checked(out, Mechanism::config_deadline, reason);
    not_checked(out, Mechanism::option_never_arrived, reason);
    return;
  }
  const auto copied = copied_config_options(*report.option_record);
  const CodeOwnership ownership(report);
  Finding deadline = make_finding(Mechanism::config_deadline);
  FixBehaviour deadline_behaviour;  // of every setting the finding moves earlier
  std::map<std::string, std::pair<std::string, std::vector<std::string>>> late_settings;  // key -> (value, modules)
  std::size_t application_writes = 0, copied_config_writes = 0, deadline_writes = 0;
  for (auto& receipt : *out.option_receipts) {
    const OptionWrite& write = receipt.write;
    if (write.by_warp || receipt.outcome == ReceiptOutcome::not_a_module_option) continue;
    ++application_writes;
    if (write.api == OptionApi::config && copied.contains(write.key)) ++copied_config_writes;
    const auto late = deadline_misses(receipt);
    deadline_writes += late.empty() ? 0 : 1;
    for (const MissedModule* miss : late) {
      // About a call: whose file made the first late write (the rest are in its evidence).
      if (deadline.module.empty()) {
        deadline.module = miss->module;
        assign_owner(deadline, owner_of_write(write, ownership));
      }
      deadline_behaviour = merged(deadline_behaviour, setting_option(write.key));
      auto& [value, modules] = late_settings[write.key];
      value = write.value;
      modules.push_back(miss->module);
      add_deadline_evidence(report, receipt, *miss, deadline);
      receipt.finding = Mechanism::config_deadline;
    }
    if (never_arrived(receipt)) {
      out.findings.push_back(never_arrived_finding(receipt, copied, ownership));
      receipt.finding = Mechanism::option_never_arrived;
    }
  }
  if (!deadline.evidence.empty()) {
    // The line early enough in this program, per setting: its first module's creation.
    std::vector<std::string> advice;
    std::vector<SettingAt> settings;
    for (const auto& [key, setting] : late_settings) {
      deadline.facts.options.push_back({key, std::nullopt, setting.first, std::nullopt});
      if (const auto line = setting_deadline(report, setting.second)) {
        advice.push_back(config_deadline_advice(*line, key, setting.first));
        settings.push_back({key, setting.first, *line});
      }
    }
    if (!advice.empty()) deadline.fix = fmt::format("{}", fmt::join(advice, " "));
    if (!settings.empty()) deadline.facts.fix = fix_with<&FixAction::settings>(FixKind::set_before_deadline, settings);
    deadline.facts.event = EventKind::setting_after_module_copied;
    deadline.facts.modules = {deadline.module};
    deadline.fix_effect = deadline_behaviour.effect;
    deadline.behaviour = deadline_behaviour.what;
    deadline.cost_basis = "not computable from one run: the build the setting was meant to avoid did happen";
    out.findings.push_back(std::move(deadline));
  } else {
    rule_out(out, Mechanism::config_deadline,
             copied_config_writes > 0 ? "every warp.config value modules copy was set before its modules were created"
                                      : "the application set no warp.config value that modules copy");
  }
  if (!out.found(Mechanism::option_never_arrived)) {
    std::string signal = "the application set no module option";
    if (application_writes > deadline_writes) {
      signal = fmt::format(
          "each of the application's {} option write(s) reached the builds it targeted, or "
          "targeted a module this run did not build",
          application_writes - deadline_writes);
    }
    if (deadline_writes > 0) {
      signal = fmt::format("{}{} setting(s) that missed their modules are config-deadline's",
                           application_writes > deadline_writes ? signal + "; " : "", deadline_writes);
    }
    rule_out(out, Mechanism::option_never_arrived, signal);
  }
}

}  // namespace wcp::analysis
