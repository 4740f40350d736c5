// The growth bench's output: its tables printed and as markdown, and its curves as one SVG of
// small panels (a hand-written line plot: log-scaled x, linear y from 0; no chart library, which
// for a headless SVG would mean a browser or a DOM).
export interface Table {
  title: string;
  header: string[];
  rows: string[][];
  notes?: string[];
}

export interface Series {
  name: string;
  points: [number, number][];
}

export interface Panel {
  title: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
  /** Linear x (worker processes), where the others are log-scaled (sizes). */
  linearX?: boolean;
}

export function markdown(tables: Table[]): string {
  return tables
    .map((table) =>
      [
        `**${table.title}**`,
        "",
        `| ${table.header.join(" | ")} |`,
        `|${table.header.map(() => "---").join("|")}|`,
        ...table.rows.map((row) => `| ${row.join(" | ")} |`),
        ...(table.notes?.length ? ["", ...table.notes] : []),
      ].join("\n"),
    )
    .join("\n\n");
}

const COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"];
const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const short = (value: number) =>
  value >= 1e6 ? `${value / 1e6}M` : value >= 1e3 ? `${value / 1e3}k` : `${Number(value.toPrecision(3))}`;

/** A "nice" upper bound for a y axis: 1, 2 or 5 times a power of ten. */
function niceMax(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((step) => step * power).find((bound) => bound >= value)!;
}

function panelSvg(panel: Panel, x0: number, y0: number, width: number, height: number): string {
  const left = x0 + 52;
  const right = x0 + width - 22;
  const top = y0 + 28;
  const bottom = y0 + height - 110;
  const points = panel.series.flatMap((series) => series.points).filter(([, y]) => Number.isFinite(y));
  const xs = [...new Set(points.map(([x]) => x))].sort((a, b) => a - b);
  if (!xs.length) return "";
  const scaleX = (x: number) => {
    const [min, max] = [xs[0]!, xs.at(-1)!];
    if (min === max) return (left + right) / 2;
    const t = panel.linearX ? (x - min) / (max - min) : Math.log(x / min) / Math.log(max / min);
    return left + t * (right - left);
  };
  const yMax = niceMax(Math.max(...points.map(([, y]) => y)));
  const scaleY = (y: number) => bottom - (y / yMax) * (bottom - top);
  const parts = [
    `<text x="${x0 + width / 2}" y="${y0 + 16}" text-anchor="middle" font-weight="bold">${escape(panel.title)}</text>`,
    `<line x1="${left}" y1="${bottom}" x2="${right}" y2="${bottom}" stroke="#444"/>`,
    `<line x1="${left}" y1="${top}" x2="${left}" y2="${bottom}" stroke="#444"/>`,
  ];
  for (const fraction of [0, 0.5, 1]) {
    const y = scaleY(yMax * fraction);
    parts.push(`<line x1="${left}" y1="${y}" x2="${right}" y2="${y}" stroke="#ddd"/>`);
    parts.push(`<text x="${left - 4}" y="${y + 4}" text-anchor="end">${short(yMax * fraction)}</text>`);
  }
  for (const x of xs) parts.push(`<text x="${scaleX(x)}" y="${bottom + 14}" text-anchor="middle">${short(x)}</text>`);
  parts.push(`<text x="${(left + right) / 2}" y="${bottom + 28}" text-anchor="middle">${escape(panel.xLabel)}</text>`);
  parts.push(
    `<text transform="translate(${x0 + 12} ${(top + bottom) / 2}) rotate(-90)" text-anchor="middle">${escape(panel.yLabel)}</text>`,
  );
  panel.series.forEach((series, index) => {
    const color = COLORS[index % COLORS.length];
    const drawn = series.points.filter(([, y]) => Number.isFinite(y));
    const path = drawn.map(([x, y], i) => `${i ? "L" : "M"}${scaleX(x).toFixed(1)},${scaleY(y).toFixed(1)}`);
    parts.push(`<path d="${path.join(" ")}" fill="none" stroke="${color}" stroke-width="2"/>`);
    for (const [x, y] of drawn)
      parts.push(`<circle cx="${scaleX(x).toFixed(1)}" cy="${scaleY(y).toFixed(1)}" r="3" fill="${color}"/>`);
    const legendY = bottom + 44 + index * 11;
    const legendX = left;
    parts.push(`<rect x="${legendX}" y="${legendY - 8}" width="10" height="3" fill="${color}"/>`);
    parts.push(`<text x="${legendX + 14}" y="${legendY - 3}">${escape(series.name)}</text>`);
  });
  return parts.join("\n");
}

/** The panels in a grid, three to a row. */
export function svg(panels: Panel[], caption: string): string {
  const width = 340;
  const height = 320;
  const columns = 3;
  const rows = Math.ceil(panels.length / columns);
  const total = { width: width * columns, height: height * rows + 24 };
  const body = panels.map((panel, index) =>
    panelSvg(panel, (index % columns) * width, Math.floor(index / columns) * height, width, height),
  );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${total.width}" height="${total.height}" font-family="sans-serif" font-size="10">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    ...body,
    `<text x="8" y="${total.height - 8}" fill="#555">${escape(caption)}</text>`,
    "</svg>",
    "",
  ].join("\n");
}
