#include "render/finding_text.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "io/common_text.h"
#include "model/module_event.h"

namespace wcp::render {
namespace {

using analysis::EventKind;
using analysis::FixKind;
using analysis::KernelFact;
using analysis::OptionChange;

// "offset (src/app.py:40)", or the bare name where its definition was not recorded.
std::string kernel_text(const KernelFact& kernel) {
  return kernel.site ? fmt::format("{} ({}:{})", kernel.name, short_file(kernel.site->file), kernel.site->line)
                     : kernel.name;
}

std::string kernels_text(const std::vector<KernelFact>& kernels) {
  std::vector<std::string> texts;
  for (const auto& kernel : kernels) texts.push_back(kernel_text(kernel));
  return fmt::format("{}", fmt::join(texts, ", "));
}

// "center, offset": the kernels alone, for a line that has no room for where each came from.
std::string kernel_names(const std::vector<KernelFact>& kernels) {
  std::vector<std::string> names;
  for (const auto& kernel : kernels) names.push_back(kernel.name);
  return fmt::format("{}", fmt::join(names, ", "));
}

// At most eight names, then how many more: a first line stays one line (the evidence lists all).
std::string names_shown(const std::vector<std::string>& names) {
  constexpr std::size_t kShown = 8;
  const std::vector<std::string> shown(names.begin(), names.begin() + std::min(names.size(), kShown));
  std::string text = fmt::format("{}", fmt::join(shown, ", "));
  if (names.size() > kShown) text += fmt::format(" and {} more", names.size() - kShown);
  return text;
}

std::string names_shown(const std::vector<KernelFact>& kernels) {
  std::vector<std::string> names;
  for (const auto& kernel : kernels) names.push_back(kernel.name);
  return names_shown(names);
}

std::string option_names(const std::vector<OptionChange>& options) {
  std::vector<std::string> names;
  for (const auto& option : options) names.push_back(option.option);
  return fmt::format("{}", fmt::join(names, ", "));
}

// "max_unroll: 16 -> 4"
std::string option_change_text(const OptionChange& option) {
  return fmt::format("{}: {} -> {}", option.option, option.before.value_or("(unknown)"),
                     option.after.value_or("(unknown)"));
}

std::string written_site(const OptionChange& option) {
  return option.site ? site_text(*option.site) : "an unknown line";
}

// The first sentence of a fix: up to the first ". " outside parentheses, so "(e.g. a path)"
// and "wp.config" never end it.
std::string first_sentence(const std::string& text) {
  int depth = 0;
  for (std::size_t at = 0; at + 1 < text.size(); ++at) {
    if (text[at] == '(') ++depth;
    if (text[at] == ')' && depth > 0) --depth;
    if (text[at] == '.' && text[at + 1] == ' ' && depth == 0) return text.substr(0, at + 1);
  }
  return text;
}

std::string event_text(const analysis::Finding& finding) {
  const analysis::FindingFacts& facts = finding.facts;
  switch (facts.event) {
    case EventKind::kernel_added_after_load:
      return "kernel added after load: " + kernels_text(facts.kernels);
    case EventKind::kernel_re_created_after_load:
      return "kernel re-created after load: " + kernels_text(facts.kernels);
    case EventKind::option_changed_after_load: {
      std::vector<std::string> changes;
      for (const auto& option : facts.options) changes.push_back(option_change_text(option));
      return fmt::format("option changed after load: {}", fmt::join(changes, ", "));
    }
    case EventKind::generic_instance_added:
      return fmt::format("generic instance added after load: {}", fmt::join(facts.names, ", "));
    case EventKind::option_reached_no_build: {
      const OptionChange& write = facts.options.front();
      return fmt::format("{} = {} set at {} reached no module build", write.option, write.after.value_or("?"),
                         written_site(write));
    }
    case EventKind::backward_never_launched: {
      const auto& modules = facts.modules;
      if (modules.size() == 1) return modules.front() + ": backward code generated, never launched adjoint";
      // Short: the evidence and the group's extent name every module.
      return fmt::format("backward code generated, never launched adjoint, in {} modules ({} and {} more)",
                         modules.size(), modules.front(), modules.size() - 1);
    }
    case EventKind::setting_after_module_copied: {
      std::vector<std::string> settings;
      for (const auto& option : facts.options)
        settings.push_back(fmt::format("wp.config.{} = {}", option.option, option.after.value_or("?")));
      return fmt::format("{} set after module {} copied warp.config", fmt::join(settings, ", "), facts.modules.front());
    }
    case EventKind::unique_kernels_stable: {
      const std::string stable = kernel_names(facts.kernels);
      const std::string undecided = fmt::format("{}", fmt::join(facts.names, ", "));
      if (facts.names.empty())
        return fmt::format("{} module=\"unique\" kernel(s) made from constants: {}", facts.kernels.size(), stable);
      if (facts.kernels.empty()) {
        return fmt::format("{} module=\"unique\" kernel(s) that may be stable (this run cannot tell): {}",
                           facts.names.size(), undecided);
      }
      return fmt::format("module=\"unique\" kernels made from constants: {}; that may be stable: {}", stable,
                         undecided);
    }
    case EventKind::compiled_at_once: {
      const analysis::IdentityFact& first = facts.identities.front();
      if (facts.identities.size() == 1) {
        return fmt::format("{} {} on {} compiled at once in {} processes", first.module, first.hash, first.device,
                           first.processes);
      }
      return fmt::format("{} {} on {} and {} more identities compiled at once in several processes", first.module,
                         first.hash, first.device, facts.identities.size() - 1);
    }
    case EventKind::main_script_compiled_twice: {
      const analysis::IdentityFact& first = facts.identities.front();
      std::string text = fmt::format(
          "the main script's kernels (hash {} on {}) compiled as __main__ and again as "
          "__mp_main__",
          first.hash, first.device);
      if (facts.identities.size() > 1) text += fmt::format(" (and {} more hash(es))", facts.identities.size() - 1);
      return text;
    }
    case EventKind::kernels_never_launched:
      if (facts.modules.size() == 1) {
        return fmt::format("{}: {} kernel(s) compiled, never launched: {}", facts.modules.front(), facts.kernels.size(),
                           names_shown(facts.kernels));
      }
      return fmt::format("{} kernel(s) compiled, never launched, in {} modules ({} and {} more)", facts.kernels.size(),
                         facts.modules.size(), facts.modules.front(), facts.modules.size() - 1);
    case EventKind::built_one_at_a_time:
      return fmt::format("{} CUDA modules, each built once, built one after another: {}", facts.modules.size(),
                         names_shown(facts.modules));
    case EventKind::kernels_not_found_after_load:
      if (facts.kernels.size() == 1 && facts.modules.size() == 1 && facts.names.size() == 1) {
        return fmt::format("Warp did not find kernel {} of module {} on {} after its loads succeeded",
                           facts.kernels.front().name, facts.modules.front(), facts.names.front());
      }
      return fmt::format("Warp did not find {} kernel(s) after their loads succeeded: {}", facts.kernels.size(),
                         names_shown(facts.kernels));
    case EventKind::built_at_several_block_dims: {
      const analysis::IdentityFact& first = facts.identities.front();
      std::vector<std::string> block_dims;
      for (const int block_dim : facts.block_dims) block_dims.push_back(std::to_string(block_dim));
      const std::size_t unrecorded =
          facts.identities.size() - std::min(facts.block_dims.size(), facts.identities.size());
      if (unrecorded > 0) block_dims.push_back(fmt::format("{} not recorded", unrecorded));
      return fmt::format("{} on {} built at {} block_dims: {}", first.module, first.device, facts.identities.size(),
                         fmt::join(block_dims, ", "));
    }
    case EventKind::modules_built_separately:
      return fmt::format("{} modules of {}, each a build of its own: {}", facts.modules.size(), facts.names.front(),
                         names_shown(facts.modules));
    case EventKind::rebuilt_cause_not_recorded: {
      if (facts.modules.size() == 1) {
        std::vector<std::string> hashes;
        for (const auto& identity : facts.identities) hashes.push_back(identity.hash);
        return fmt::format("{} rebuilt with a new hash ({}); the change that caused it was not recorded",
                           facts.modules.front(), fmt::join(hashes, " -> "));
      }
      return fmt::format("{} modules rebuilt with a new hash; the changes that caused it were not recorded: {}",
                         facts.modules.size(), names_shown(facts.modules));
    }
    case EventKind::as_written:
      break;
  }
  return finding.headline.empty() ? finding.trigger : finding.headline;
}

}  // namespace

std::string config_deadline_short_advice(const analysis::SettingDeadline& deadline, const std::string& key,
                                         const std::string& value) {
  using analysis::SettingDeadline;
  switch (deadline.kind) {
    case SettingDeadline::Kind::entry_script_line:
      return fmt::format("Set wp.config.{} = {} in {} before line {}.", key, value, short_file(deadline.before.file),
                         deadline.before.line);
    case SettingDeadline::Kind::kernel_definition:
      if (deadline.users_code) {
        return fmt::format("Set wp.config.{} = {} before {}:{}.", key, value, short_file(deadline.before.file),
                           deadline.before.line);
      }
      return fmt::format("Set wp.get_module(\"{}\").options[\"{}\"] = {} before its first load.", deadline.module, key,
                         value);
    case SettingDeadline::Kind::runner_session:
      if (deadline.in_test_file()) {
        return fmt::format(
            "Call wp.set_module_options({{\"{}\": {}}}) at the top of {}: it reaches that file's module "
            "only.",
            key, value, short_file(*deadline.test_file));
      }
      // Its scope in the same sentence: this run is one part of the suite.
      if (deadline.session_setup) {
        return fmt::format(
            "Set wp.config.{} = {} at the top of {} (create it if there is none) if no test of the suite needs "
            "otherwise.",
            key, value, *deadline.session_setup);
      }
      if (deadline.test_file) {
        return fmt::format(
            "Set wp.config.{} = {} at the top of {}, right after `import warp`, if no other test run with it "
            "needs otherwise.",
            key, value, short_file(*deadline.test_file));
      }
      return fmt::format("Set wp.config.{} = {} where the test session starts (the conftest.py in its rootdir).", key,
                         value);
  }
  return "";
}

std::string fix_action_text(const analysis::FixAction& fix) {
  switch (fix.kind) {
    case FixKind::define_before_first_launch:
      return fmt::format("Define (import) {} before the module's first launch.", kernels_text(fix.kernels));
    case FixKind::create_before_first_launch:
      return fmt::format(
          "Create the kernels {}:{} makes before the first launch, or pass the varying value as a kernel parameter.",
          short_file(fix.site->file), fix.site->line);
    case FixKind::set_module_options_early:
      return fmt::format("Set {} with wp.set_module_options at the top of the Python module, before the first launch.",
                         option_names(fix.options));
    case FixKind::declare_overloads_early:
      return fmt::format("Declare {} with wp.overload before the first launch.", fmt::join(fix.names, ", "));
    case FixKind::rename_shadowed_argument: {
      const KernelFact& kernel = fix.kernels.front();
      return fmt::format(
          "Rename {}'s argument `{}` ({}) or the global `{}` of {} (e.g. move the code that assigns it into a "
          "function): Warp hashes that global as a constant of the kernel.",
          kernel.name, fix.names.front(), kernel.site ? site_text(*kernel.site) : "its definition", fix.names.front(),
          fix.python_module.empty() ? "its module" : fix.python_module);
    }
    case FixKind::keep_value_fixed:
      return fmt::format(
          "Keep `{}` fixed once {} has launched: each value it names is compiled in, a build of its own (as a kernel "
          "parameter it would build once, but that changes the kernel's signature, so its launches).",
          fix.names.front(), fix.kernels.front().name);
    case FixKind::keep_function_value_fixed:
      return fmt::format(
          "Each value of `{}` that {} captures is compiled in, a build of its own: keep it fixed once the module has "
          "launched (as a parameter it would build once, but that changes the kernels' signatures, so their "
          "launches).",
          fix.names.front(), kernel_text(fix.kernels.front()));
    case FixKind::add_overloads_early:
      return fmt::format("Add every overload of {} (one comes from {}) before the module's first launch.",
                         fix.kernels.front().name, fix.site ? site_text(*fix.site) : "an unknown line");
    case FixKind::define_function_early:
      return fmt::format("Define {} in its final form before the module's first launch.",
                         kernel_text(fix.kernels.front()));
    case FixKind::remove_option_write: {
      const OptionChange& write = fix.options.front();
      return fmt::format("Remove the {} write at {}: it reached no build.", write.option, written_site(write));
    }
    case FixKind::for_maintainers:
      return fmt::format("For the maintainers of {}; nothing for you to change.", fix.package);
    case FixKind::set_before_deadline: {
      std::vector<std::string> each;
      for (const auto& setting : fix.settings)
        each.push_back(config_deadline_short_advice(setting.deadline, setting.key, setting.value));
      return fmt::format("{}", fmt::join(each, " "));
    }
    case FixKind::drop_unique: {
      const std::string stable = kernel_names(fix.kernels);
      if (fix.names.empty()) return fmt::format("Drop module=\"unique\" from {}.", stable);
      const std::string undecided = fmt::format("those of {} whose code never changes", fmt::join(fix.names, ", "));
      if (fix.kernels.empty()) return fmt::format("Drop module=\"unique\" from {}.", undecided);
      return fmt::format("Drop module=\"unique\" from {}; drop module=\"unique\" from {}.", stable, undecided);
    }
    case FixKind::set_at_entry_point: {
      const analysis::SettingAt& setting = fix.settings.front();
      return fmt::format(
          "Set wp.config.{} = {} at your entry point, right after `import warp` and before importing {}.", setting.key,
          setting.value, fix.package);
    }
    case FixKind::as_written:
      break;
  }
  return "";
}

std::string site_text(const analysis::SourceSite& site) {
  std::string text = fmt::format("{}:{}", short_file(site.file), site.line);
  if (!site.function.empty() && site.function != "<module>") text += " (in " + site.function + ")";
  return text;
}

std::string headline_text(const analysis::Finding& finding) {
  std::string text = event_text(finding);
  // The first rebuild is named; the count says there are more (the evidence lists them).
  if (finding.facts.more_rebuilds > 0) text += fmt::format(" (and {} more rebuild(s))", finding.facts.more_rebuilds);
  return text;
}

std::string short_fix_text(const analysis::Finding& finding) {
  std::string text = fix_action_text(finding.facts.fix);
  if (!text.empty()) return text;
  return finding.short_fix.empty() ? first_sentence(finding.fix) : finding.short_fix;
}

std::string fix_text(const analysis::Finding& finding) {
  return finding.facts.fix.whole && finding.facts.fix.kind != FixKind::as_written ? short_fix_text(finding)
                                                                                  : finding.fix;
}

GroupText finding_group_text(const analysis::FindingGroup& group, const std::vector<analysis::Finding>& findings) {
  std::vector<std::string> headlines, short_fixes;
  for (const auto& member : group.members) {
    headlines.push_back(headline_text(findings.at(member.finding)));
    short_fixes.push_back(short_fix_text(findings.at(member.finding)));
  }
  return {common_text(headlines), common_text(short_fixes)};
}

}  // namespace wcp::render
