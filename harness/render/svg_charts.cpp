#include "render/svg_charts.h"

#include <fmt/format.h>

#include <algorithm>

namespace wcp::render {
namespace {

constexpr int kWidth = 760;
constexpr int kLabelWidth = 260;
constexpr int kRowHeight = 26;

std::string label_of(const results::IdentityBar& bar) {
  std::string label = bar.module + " " + (bar.hash.empty() ? "-" : bar.hash) + " " + bar.device;
  if (bar.block_dim) label += fmt::format(" bd{}", *bar.block_dim);
  return label;
}

}  // namespace

std::string escape_xml(const std::string& text) {
  std::string escaped;
  escaped.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': escaped += "&amp;"; break;
      case '<': escaped += "&lt;"; break;
      case '>': escaped += "&gt;"; break;
      case '"': escaped += "&quot;"; break;
      case '\'': escaped += "&#39;"; break;
      default: escaped += c;
    }
  }
  return escaped;
}

std::string identity_bars_svg(const std::vector<results::IdentityBar>& identities) {
  double most = 1.0;
  for (const auto& bar : identities) most = std::max({most, bar.baseline_ms.value_or(0.0), bar.candidate_ms.value_or(0.0)});
  const int height = 40 + static_cast<int>(identities.size()) * kRowHeight;
  const double scale = (kWidth - kLabelWidth - 90) / most;
  std::string svg = fmt::format(
      R"(<svg class="identity-bars" xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" role="img" )"
      R"(aria-label="build time per compiled identity, before and after">)",
      kWidth, height);
  svg += R"(<rect class="legend before" x="10" y="8" width="12" height="10"/><text x="28" y="17">before</text>)";
  svg += R"(<rect class="legend after" x="90" y="8" width="12" height="10"/><text x="108" y="17">after</text>)";
  int row = 0;
  for (const auto& bar : identities) {
    const int y = 30 + row++ * kRowHeight;
    svg += fmt::format(R"(<g class="identity" data-identity="{}"><text x="10" y="{}">{}</text>)",
                       escape_xml(label_of(bar)), y + 14, escape_xml(label_of(bar)));
    int lane = 0;
    for (const auto& [value, side] : {std::pair{bar.baseline_ms, "before"}, std::pair{bar.candidate_ms, "after"}}) {
      if (value) {
        const double width = std::max(1.0, *value * scale);
        svg += fmt::format(
            R"(<rect class="bar {}" x="{}" y="{}" width="{:.1f}" height="10"><title>{}: {:.1f} ms {}</title></rect>)",
            side, kLabelWidth, y + 1 + lane * 11, width, escape_xml(label_of(bar)), *value, side);
        svg += fmt::format(R"(<text class="value" x="{:.1f}" y="{}">{:.0f} ms</text>)", kLabelWidth + width + 4,
                           y + 10 + lane * 11, *value);
      }
      ++lane;
    }
    svg += "</g>";
  }
  svg += "</svg>";
  return svg;
}

std::string timeline_svg(const results::Timeline& timeline, const std::string& title) {
  if (!timeline.unavailable.empty()) {
    return fmt::format(R"(<p class="unavailable">{}: no timeline ({}).</p>)", escape_xml(title),
                       escape_xml(timeline.unavailable));
  }
  // Greedy lanes: a build goes on the first lane that is free when it starts.
  std::vector<double> lane_end;
  std::vector<int> lanes;
  for (const auto& span : timeline.spans) {
    std::size_t lane = 0;
    while (lane < lane_end.size() && lane_end[lane] > span.start_ms + 1.0) ++lane;
    if (lane == lane_end.size()) lane_end.push_back(0.0);
    lane_end[lane] = span.end_ms;
    lanes.push_back(static_cast<int>(lane));
  }
  const double wall = std::max(timeline.wall_ms, 1.0);
  const double scale = (kWidth - 20) / wall;
  const int height = 50 + static_cast<int>(std::max<std::size_t>(lane_end.size(), 1)) * kRowHeight;
  std::string svg = fmt::format(
      R"(<svg class="timeline" xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" role="img" aria-label="{}">)",
      kWidth, height, escape_xml(title));
  svg += fmt::format(R"(<text x="10" y="16">{} — {}, {:.0f} ms cold run{}</text>)", escape_xml(title),
                     timeline.overlapped ? "builds overlapped" : "builds one at a time", timeline.wall_ms,
                     std::any_of(timeline.spans.begin(), timeline.spans.end(), [](const auto& span) { return span.built_pch; })
                         ? " (orange: the build that also made the precompiled header)"
                         : "");
  svg += fmt::format(R"(<line class="axis" x1="10" y1="{}" x2="{}" y2="{}"/>)", height - 14, kWidth - 10, height - 14);
  svg += fmt::format(R"(<text class="value" x="{}" y="{}">{:.0f} ms</text>)", kWidth - 70, height - 2, wall);
  for (std::size_t i = 0; i < timeline.spans.size(); ++i) {
    const auto& span = timeline.spans[i];
    const double x = 10 + span.start_ms * scale;
    const double width = std::max(1.0, (span.end_ms - span.start_ms) * scale);
    const int y = 26 + lanes[i] * kRowHeight;
    svg += fmt::format(
        R"(<rect class="build{}" x="{:.1f}" y="{}" width="{:.1f}" height="18"><title>{} {}: {:.0f} ms ({:.0f}–{:.0f} ms){}</title></rect>)",
        span.built_pch ? " pch" : "", x, y, width, escape_xml(span.module), escape_xml(span.hash),
        span.end_ms - span.start_ms, span.start_ms, span.end_ms, span.built_pch ? ", with the precompiled header" : "");
    if (width > 60) {
      svg += fmt::format(R"(<text class="build-label" x="{:.1f}" y="{}">{}</text>)", x + 3, y + 13,
                         escape_xml(span.module));
    }
  }
  svg += "</svg>";
  return svg;
}

}  // namespace wcp::render
