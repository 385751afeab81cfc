#pragma once
/// Whole-flock measures: the run summary and the order parameters of collective behaviour.

#include "boids/model.hpp"
#include "boids/params.hpp"
#include "boids/world.hpp"

#include <span>
#include <string>
#include <string_view>

namespace boids {

/// Measures over the flocking agents (boids and scouts; predators excluded).
struct FlockSummary {
    double mean_speed = 0.0;   ///< pixels per step
    double polarization = 0.0; ///< norm of the mean unit velocity: 1 = all aligned, ~0 = disordered
    bool finite = true;        ///< false if any coordinate of any agent is NaN or infinite
};

/// The mean speed and polarization of a world, and whether every coordinate is finite.
template <class Real>
[[nodiscard]] FlockSummary summarize(const World<Real>& world);

/// Order parameters of the flocking agents (boids and scouts; predators excluded). All are 0 for an
/// empty flock. See docs/ARCHITECTURE.md ("Metrics") for the exact definitions.
struct Metrics {
    long long step = 0;        ///< the simulation step they were taken at (set by the caller)
    double polarization = 0.0; ///< |mean unit velocity|: 1 aligned, ~0 disordered (Vicsek's v_a)
    double milling = 0.0; ///< |mean of r_hat x u_hat| about the centroid: 1 for a rotating ring, ~0 otherwise
    double nnd_mean = 0.0;   ///< mean distance to the nearest other flocking agent (0 if fewer than 2)
    long long groups = 0;    ///< connected components, linking agents closer than link_range(params)
    double speed_mean = 0.0; ///< mean speed
    double speed_std = 0.0;  ///< population standard deviation of the speed
    double frac_right = 0.0; ///< fraction of the plain boids (all flocking agents if none) with vx > 0
    double frac_left = 0.0;  ///< fraction of the plain boids (all flocking agents if none) with vx < 0
    double accuracy = 0.0;   ///< 1 - |angle(mean heading, +x)| / pi: Couzin's accuracy toward scout1's +x
    double side_right = 0.0; ///< fraction of the same agents as frac_right in the right half (x > width / 2)
};

/// Computes every metric in O(N k) with the spatial grid, threaded over `threads` (0 = all); the result
/// does not depend on the thread count. Distances follow params.boundary (minimum image on a torus; the
/// centroid for milling is the plain mean of positions). The neighbour scan (nnd_mean, groups) runs on
/// SIMD lanes for float and double worlds.
template <class Real>
[[nodiscard]] Metrics compute_metrics(const World<Real>& world, const Params& params, int threads = 0);

/// The same metrics with the plain scalar neighbour scan: the readable reference compute_metrics is tested
/// against (it gives the same doubles and the same group count).
template <class Real>
[[nodiscard]] Metrics reference_metrics(const World<Real>& world, const Params& params, int threads = 0);

/// Names of the metrics a sweep can average and value() reads, in a stable order.
[[nodiscard]] std::span<const std::string_view> metric_names();

/// One metric by name. Throws InputError naming the allowed names when `name` is unknown.
[[nodiscard]] double metric_value(const Metrics& metrics, std::string_view name);

/// The stable header of a metrics CSV: `step,polarization,milling,nnd_mean,groups,speed_mean,speed_std,
/// frac_right,frac_left` (no newline).
[[nodiscard]] std::string metrics_csv_header();

/// One metrics CSV row in the header's column order, numbers in shortest round-trip form (no newline).
[[nodiscard]] std::string metrics_csv_row(const Metrics& metrics);

} // namespace boids
