#pragma once
// A finding's first line, its short fix and its whole fix, phrased from its typed facts
// (analysis/finding_facts.h), and a group's, where one holds for every member. Every renderer
// (the summary, the brief, the verbose text, the JSON's text fields) says a finding in these
// words; each line is whole, so a screen wraps it and never cuts it.
#include <string>
#include <vector>

#include "analysis/finding.h"

namespace wcp::render {

// "kernel added after load: offset (src/app.py:40) (and 1 more rebuild(s))"
std::string headline_text(const analysis::Finding& finding);
// "Define (import) offset (src/app.py:40) before the module's first launch."
std::string short_fix_text(const analysis::Finding& finding);
// The full fix: the family's own words, or the phrased action where that is the whole fix.
std::string fix_text(const analysis::Finding& finding);

// The action phrased, in one short line; "" for `as_written` (the family's own words apply).
std::string fix_action_text(const analysis::FixAction& fix);
// "Set wp.config.enable_backward = False in app.py before line 9.": where a setting goes, in one
// line, without the module-option alternative the full fix gives. Deadlines that differ in the
// line alone say one thing for a group.
std::string config_deadline_short_advice(const analysis::SettingDeadline& deadline, const std::string& key,
                                         const std::string& value);

// "src/app.py:40 (in main)": a source site as a person reads it.
std::string site_text(const analysis::SourceSite& site);

// A group's first line and short fix: the members' when they agree; when they differ in one
// number only (a line), with that number listed ("stages.py:10, 30 and 21"); otherwise "", and a
// reader is shown each member's.
struct GroupText {
  std::string headline;
  std::string short_fix;
};
GroupText finding_group_text(const analysis::FindingGroup& group, const std::vector<analysis::Finding>& findings);

}  // namespace wcp::render
