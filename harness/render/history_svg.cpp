#include "render/history_svg.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <optional>

#include "render/svg_charts.h"

namespace wcp::render {
namespace {

using history::Point;
using history::Series;

constexpr int kWidth = 760;
constexpr double kLeft = 64.0;  // room for the y tick labels
constexpr double kRight = 16.0;
constexpr double kTop = 40.0;     // room for the title line and step labels
constexpr double kBottom = 64.0;  // room for the rotated commit labels
constexpr double kPlotWidth = kWidth - kLeft - kRight;

// Presentation attributes, not a style sheet: the charts look the same standalone and inline.
constexpr const char* kInk = "#1d1d1f";
constexpr const char* kBlue = "#2f6fdd";
constexpr const char* kBand = "#2f6fdd";
constexpr const char* kRed = "#b3261e";
constexpr const char* kOrange = "#c25e00";
constexpr const char* kGrey = "#999";

// The horizontal layout: one slot per commit, in the series' order.
struct Slots {
  std::size_t count = 1;
  double width() const { return kPlotWidth / static_cast<double>(std::max<std::size_t>(count, 1)); }
  double left(std::size_t index) const { return kLeft + static_cast<double>(index) * width(); }
  double centre(std::size_t index) const { return left(index) + width() / 2.0; }
};

// The vertical layout: value range [low, high] onto [axis, kTop].
struct Scale {
  double low = 0.0;
  double high = 1.0;
  double axis = 0.0;  // the pixel row of the x axis
  double y(double value) const { return axis - (value - low) / (high - low) * (axis - kTop); }
};

std::optional<Summary> clock_of(const Point& point) {
  if (!point.result.measured()) return std::nullopt;
  return point.result.cold_module_ms;
}

std::string open_svg(const char* css_class, int height, const std::string& title) {
  return fmt::format(
      R"(<svg class="{}" xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}" role="img" )"
      R"(aria-label="{}" font-family="system-ui, sans-serif" font-size="11"><title>{}</title>)",
      css_class, kWidth, height, kWidth, height, escape_xml(title), escape_xml(title));
}

std::string heading(const std::string& text) {
  return fmt::format(R"(<text class="heading" x="{}" y="16" fill="{}">{}</text>)", kLeft, kInk, escape_xml(text));
}

// The x axis and one label per commit, rotated so that many commits stay readable.
std::string commit_axis(const Series& series, const Slots& slots, double axis) {
  std::string svg = fmt::format(R"(<line class="axis" x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="{}"/>)",
                                kLeft, axis, kLeft + kPlotWidth, axis, kGrey);
  for (std::size_t index = 0; index < series.points.size(); ++index) {
    const std::string sha = escape_xml(history::short_sha(series.points[index].commit));
    const double x = slots.centre(index);
    svg += fmt::format(R"(<text class="commit" data-commit="{}" x="{:.1f}" y="{:.1f}" text-anchor="end" fill="{}" )"
                       R"svg(transform="rotate(-40 {:.1f} {:.1f})">{}</text>)svg",
                       sha, x, axis + 14.0, kInk, x, axis + 14.0, sha);
  }
  return svg;
}

std::string y_tick(const Scale& scale, double value, const std::string& label) {
  const double y = scale.y(value);
  return fmt::format(R"(<line class="grid" x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="#e3e3e6"/>)"
                     R"(<text class="tick" x="{:.1f}" y="{:.1f}" text-anchor="end" fill="{}">{}</text>)",
                     kLeft, y, kLeft + kPlotWidth, y, kLeft - 6.0, y + 4.0, kInk, escape_xml(label));
}

// Seconds with as many decimals as the range needs to tell its ticks apart.
std::string seconds_label(double ms, double span_ms) {
  const int decimals = span_ms >= 10000.0 ? 0 : span_ms >= 1000.0 ? 1 : span_ms >= 100.0 ? 2 : 3;
  return fmt::format("{:.{}f} s", ms / 1000.0, decimals);
}

// "failed" (every sample failed) or "no clock" (measured, but this clock was not).
std::string failed_marker(const Point& point, double x, double axis) {
  const bool failed = !point.result.measured();
  const std::string sha = escape_xml(history::short_sha(point.commit));
  const std::string detail = failed
                                 ? fmt::format("{}: every sample failed ({} of {})", history::short_sha(point.commit),
                                               point.result.failed_samples, point.result.samples)
                                 : fmt::format("{}: cold module work not measured", history::short_sha(point.commit));
  return fmt::format(
      R"(<g class="failed{}" data-commit="{}"><title>{}</title>)"
      R"(<path d="M{:.1f} {:.1f}L{:.1f} {:.1f}M{:.1f} {:.1f}L{:.1f} {:.1f}" stroke="{}" stroke-width="2"/>)"
      R"(<text x="{:.1f}" y="{:.1f}" text-anchor="middle" fill="{}">{}</text></g>)",
      failed ? "" : " unmeasured", sha, escape_xml(detail), x - 4.0, axis - 4.0, x + 4.0, axis + 4.0, x - 4.0,
      axis + 4.0, x + 4.0, axis - 4.0, kRed, x, axis - 8.0, kRed, failed ? "failed" : "no clock");
}

}  // namespace

std::string history_clock_svg(const Series& series) {
  constexpr int kHeight = 300;
  const double axis = kHeight - kBottom;
  const std::string title = series.name + ": cold module work by commit";
  std::string svg = open_svg("history-clock", kHeight, title);
  svg += heading("cold module work median (s), shaded: ± MAD");
  if (series.points.empty()) {
    svg +=
        fmt::format(R"(<text class="empty" x="{}" y="{}" fill="{}">no results</text></svg>)", kLeft, kTop + 20, kInk);
    return svg;
  }

  // The value range of the measured medians and their bands, padded so nothing sits on the frame.
  std::optional<double> low;
  std::optional<double> high;
  for (const auto& point : series.points) {
    if (const auto clock = clock_of(point)) {
      const double mad = clock->mad.value_or(0.0);
      low = std::min(low.value_or(clock->median - mad), clock->median - mad);
      high = std::max(high.value_or(clock->median + mad), clock->median + mad);
    }
  }
  // The lowest value sits a gutter above the x axis, so that a failed marker on the axis is never
  // read as a value.
  Scale scale{0.0, 1.0, axis - 16.0};
  if (low && high) {
    const double padding = std::max({(*high - *low) * 0.1, std::abs(*high) * 0.01, 1.0});
    scale.low = std::max(0.0, *low - padding);
    scale.high = *high + padding;
    const double span = scale.high - scale.low;
    for (const double value : {scale.low, scale.low + span / 2.0, scale.high}) {
      svg += y_tick(scale, value, seconds_label(value, span));
    }
  } else {
    svg += fmt::format(R"(<text class="empty" x="{}" y="{}" fill="{}">no cold module work was measured</text>)", kLeft,
                       kTop + 20, kInk);
  }

  const Slots slots{series.points.size()};
  svg += commit_axis(series, slots, axis);

  // Bands first, so the line and points draw over them.
  const double band_width = std::min(slots.width() * 0.6, 28.0);
  for (std::size_t index = 0; index < series.points.size(); ++index) {
    const auto clock = clock_of(series.points[index]);
    if (!clock || !clock->mad) continue;
    const double top = scale.y(clock->median + *clock->mad);
    const double bottom = scale.y(clock->median - *clock->mad);
    svg += fmt::format(
        R"(<rect class="band" data-commit="{}" x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" fill="{}" )"
        R"(fill-opacity="0.18"/>)",
        escape_xml(history::short_sha(series.points[index].commit)), slots.centre(index) - band_width / 2.0, top,
        band_width, std::max(bottom - top, 1.0), kBand);
  }

  // The line breaks at every commit without a median: missing is not zero, nor interpolated.
  std::string path;
  bool drawing = false;
  for (std::size_t index = 0; index < series.points.size(); ++index) {
    const auto clock = clock_of(series.points[index]);
    if (!clock) {
      drawing = false;
      continue;
    }
    path += fmt::format("{}{:.1f} {:.1f}", drawing ? "L" : "M", slots.centre(index), scale.y(clock->median));
    drawing = true;
  }
  if (!path.empty()) {
    svg += fmt::format(R"(<path class="line" d="{}" fill="none" stroke="{}" stroke-width="1.5"/>)", path, kBlue);
  }

  for (std::size_t index = 0; index < series.points.size(); ++index) {
    const Point& point = series.points[index];
    const std::string sha = history::short_sha(point.commit);
    const double x = slots.centre(index);
    if (point.step) {
      svg += fmt::format(
          R"(<g class="step" data-commit="{}"><title>{}</title>)"
          R"(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="{}" stroke-dasharray="4 3"/>)"
          R"(<text class="step-label" x="{:.1f}" y="{:.1f}" text-anchor="middle" fill="{}">step</text></g>)",
          escape_xml(sha), escape_xml(point.step->summary), x, kTop - 4.0, x, axis, kOrange, x, kTop - 8.0, kOrange);
    }
    if (point.note) {
      // Grey, in the step labels' row (below it when the commit is also a step): a note explains
      // a commit, it does not mark one.
      svg += fmt::format(
          R"(<g class="note" data-commit="{}"><title>{}</title>)"
          R"(<text class="note-label" x="{:.1f}" y="{:.1f}" text-anchor="middle" fill="{}">code</text></g>)",
          escape_xml(sha), escape_xml(point.note->summary), x, point.step ? kTop + 6.0 : kTop - 8.0, kGrey);
    }
    const auto clock = clock_of(point);
    if (!clock) {
      svg += failed_marker(point, x, axis);
      continue;
    }
    std::string detail = fmt::format("{}: {:.1f} ms", sha, clock->median);
    if (clock->mad) detail += fmt::format(" ± {:.1f}", *clock->mad);
    if (point.change_ms) detail += fmt::format(", {:+.1f} ms vs previous", *point.change_ms);
    if (point.clock != history::ClockMove::none) detail += ", " + history::to_string(point.clock);
    svg += fmt::format(
        R"(<circle class="point {}" data-commit="{}" data-ms="{:.1f}" cx="{:.1f}" cy="{:.1f}" r="3.5" fill="{}">)"
        R"(<title>{}</title></circle>)",
        history::to_string(point.clock), escape_xml(sha), clock->median, x, scale.y(clock->median),
        point.step ? kOrange : kBlue, escape_xml(detail));
  }
  svg += "</svg>";
  return svg;
}

std::string history_identities_svg(const Series& series) {
  constexpr int kHeight = 220;
  const double axis = kHeight - kBottom;
  const std::string title = series.name + ": compiled identities by commit";
  std::string svg = open_svg("history-identities", kHeight, title);
  svg += heading("compiled identities in the cold run");
  if (series.points.empty()) {
    svg +=
        fmt::format(R"(<text class="empty" x="{}" y="{}" fill="{}">no results</text></svg>)", kLeft, kTop + 20, kInk);
    return svg;
  }
  auto count_of = [](const Point& point) -> std::optional<std::uint64_t> {
    if (!point.result.measured()) return std::nullopt;
    return point.result.identities;
  };
  std::uint64_t most = 1;
  for (const auto& point : series.points) most = std::max(most, count_of(point).value_or(0));
  const Scale scale{0.0, static_cast<double>(most) * 1.15, axis};
  svg += y_tick(scale, 0.0, "0");
  svg += y_tick(scale, static_cast<double>(most), fmt::format("{}", most));

  const Slots slots{series.points.size()};
  svg += commit_axis(series, slots, axis);

  // Horizontal segments across each commit's slot, a vertical step ("V") where adjacent commits
  // differ, and a new subpath ("M") after every commit without a count.
  std::string path;
  bool drawing = false;        // the previous commit had a count: the path continues
  std::uint64_t previous = 0;  // that count
  for (std::size_t index = 0; index < series.points.size(); ++index) {
    const auto count = count_of(series.points[index]);
    if (!count) {
      drawing = false;
      continue;
    }
    const double y = scale.y(static_cast<double>(*count));
    if (!drawing) {
      path += fmt::format("M{:.1f} {:.1f}", slots.left(index), y);
    } else if (previous != *count) {
      path += fmt::format("V{:.1f}", y);
    }
    path += fmt::format("H{:.1f}", slots.left(index) + slots.width());
    drawing = true;
    previous = *count;
  }
  if (!path.empty()) {
    svg += fmt::format(R"(<path class="identities" d="{}" fill="none" stroke="{}" stroke-width="2"/>)", path, kBlue);
  }

  for (std::size_t index = 0; index < series.points.size(); ++index) {
    const Point& point = series.points[index];
    const std::string sha = history::short_sha(point.commit);
    const double x = slots.centre(index);
    if (const auto count = count_of(point)) {
      svg += fmt::format(
          R"(<circle class="point" data-commit="{}" data-identities="{}" cx="{:.1f}" cy="{:.1f}" r="3" fill="{}">)"
          R"(<title>{}: {} identities</title></circle>)",
          escape_xml(sha), *count, x, scale.y(static_cast<double>(*count)), kBlue, escape_xml(sha), *count);
      continue;
    }
    const bool failed = !point.result.measured();
    svg += fmt::format(R"(<g class="gap{}" data-commit="{}"><title>{}: {}</title>)"
                       R"(<text x="{:.1f}" y="{:.1f}" text-anchor="middle" fill="{}">{}</text></g>)",
                       failed ? " failed" : "", escape_xml(sha), escape_xml(sha),
                       failed ? "every sample failed" : "identity count not recorded", x, axis - 8.0, kRed,
                       failed ? "failed" : "unknown");
  }
  svg += "</svg>";
  return svg;
}

}  // namespace wcp::render
