#!/usr/bin/python3
"""Plot `boids sweep` CSV files: the mean of a metric over seeds (error bars: standard deviation over
seeds, or with --error sem the standard error of the mean) against the varied key, one curve per file.

    /usr/bin/python3 examples/plot_sweep.py docs/figures/vicsek_N400.csv --metric polarization \
        --label "N = 400" --out vicsek.png

Needs Debian's python3-matplotlib (the Agg backend: no display)."""

import argparse
import collections
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_sweep(path):
    """(key, metric names, {value: [row of metric values, one per seed]}) from a sweep CSV."""
    with open(path, newline="") as f:
        rows = list(csv.reader(line for line in f if not line.startswith("#")))
    if not rows or len(rows[0]) < 3 or rows[0][1] != "seed":
        sys.exit(f"plot_sweep: {path} is not a boids sweep CSV of one varied key (expected KEY,seed,METRIC... "
                 "header; for two keys see examples/phase_diagram.py)")
    header, data = rows[0], rows[1:]
    by_value = collections.defaultdict(list)
    for row in data:
        by_value[float(row[0])].append([float(x) for x in row[2:]])
    return header[0], header[2:], by_value


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv", nargs="+", help="sweep CSV files (boids sweep --out)")
    parser.add_argument("--metric", help="metric column to plot (default: the first)")
    parser.add_argument("--label", action="append", help="legend label (repeat: one per file, in order)")
    parser.add_argument("--xlabel", help="x axis label (default: the varied key)")
    parser.add_argument("--ylabel", help="y axis label (default: the metric)")
    parser.add_argument("--title", default="")
    parser.add_argument("--error", choices=("std", "sem"), default="std",
                        help="error bars: standard deviation over seeds (default) or standard error of the mean")
    parser.add_argument("--logx", action="store_true", help="logarithmic x axis")
    parser.add_argument("--out", required=True, help="image file (.png, .svg, .pdf)")
    args = parser.parse_args()

    labels = args.label or args.csv
    if len(labels) != len(args.csv):
        sys.exit("plot_sweep: give --label once per CSV file, or not at all")
    fig, ax = plt.subplots(figsize=(6, 4.2), dpi=120)
    key = metric = None
    for path, label in zip(args.csv, labels):
        key, metrics, by_value = read_sweep(path)
        metric = args.metric or metrics[0]
        if metric not in metrics:
            sys.exit(f"plot_sweep: {path} has no metric {metric!r}; it has {', '.join(metrics)}")
        column = metrics.index(metric)
        xs = sorted(by_value)
        means, stds = [], []
        for x in xs:
            values = [row[column] for row in by_value[x]]
            mean = sum(values) / len(values)
            means.append(mean)
            std = (sum((v - mean) ** 2 for v in values) / len(values)) ** 0.5
            stds.append(std / len(values) ** 0.5 if args.error == "sem" else std)
        seeds = min(len(by_value[x]) for x in xs)
        ax.errorbar(xs, means, yerr=stds, marker="o", markersize=4, capsize=3, label=f"{label} ({seeds} seeds)")
    ax.set_xlabel(args.xlabel or key)
    ax.set_ylabel(args.ylabel or metric)
    if args.logx:
        ax.set_xscale("log")
    ax.set_title(args.title)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.out)
    print(f"plot_sweep: wrote {args.out}")


if __name__ == "__main__":
    main()
