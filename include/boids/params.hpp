#pragma once
/// The parameters of the classic model (SPEC §2) with the defaults of SPEC §3, and their validation.

#include <span>
#include <string>
#include <string_view>

namespace boids {

/// How the world's edges behave.
enum class Boundary {
    Margin, ///< boids turn back inside the margins (SPEC §2 step 4)
    Wrap,   ///< torus: positions wrap, distances use the minimum image, no edge turning
};

/// Which update rule the simulation applies to the flocking agents (see docs/ARCHITECTURE.md).
enum class Model {
    Classic, ///< Reynolds/Adams boids of SPEC §2 (default)
    Vicsek,  ///< Vicsek et al. 1995: constant speed, align with neighbours in a radius, angular noise
    Couzin,  ///< Couzin et al. 2005: repulsion, then alignment + attraction, turning limit, informed agents
};

/// Every model with its parameter-file name, in a stable order; new models add a row here.
struct ModelName {
    Model model;
    std::string_view name;
};
inline constexpr ModelName model_names[] = {
    {Model::Classic, "classic"},
    {Model::Vicsek, "vicsek"},
    {Model::Couzin, "couzin"},
};

/// Every tunable of the classic model. Units: pixels and pixels per step (time step 1).
/// Defaults are the `vga-predator` preset (seed 004) with the scout values of seed 000.
struct Params {
    double width = 640.0;             ///< world width in pixels
    double height = 480.0;            ///< world height in pixels (y grows downward)
    double margin_left = 100.0;       ///< boids left of this x turn right
    double margin_right = 100.0;      ///< boids right of width - margin_right turn left
    double margin_top = 100.0;        ///< boids above this y turn down
    double margin_bottom = 100.0;     ///< boids below height - margin_bottom turn up
    double turn_factor = 0.2;         ///< velocity change per step at an edge
    double visual_range = 40.0;       ///< neighbours closer than this are averaged (cohesion, alignment)
    double protected_range = 8.0;     ///< neighbours closer than this are avoided (separation)
    double centering_factor = 0.0005; ///< cohesion gain toward the neighbours' centre
    double avoid_factor = 0.05;       ///< separation gain
    double matching_factor = 0.05;    ///< alignment gain toward the neighbours' mean velocity
    double max_speed = 6.0;           ///< speed is clamped to at most this
    double min_speed = 3.0;           ///< speed is raised to at least this
    double predator_range = 100.0;    ///< boids react to predators closer than this
    double predator_turn_factor = 0.5; ///< velocity change per step away from predators
    bool dynamic_bias = false;        ///< scouts' bias grows while they move their way (seed 000, 5730)
    double max_bias = 0.01;           ///< upper bound of a scout's dynamic bias
    double bias_increment = 0.00004;  ///< dynamic bias step; also its lower bound
    double scout1_bias = 0.001;       ///< bias of scout group 1 (toward +x): initial if dynamic, else fixed
    double scout2_bias = 0.001;       ///< bias of scout group 2 (toward -x): initial if dynamic, else fixed
    Boundary boundary = Boundary::Margin; ///< margin or wrap
    Model model = Model::Classic;     ///< update rule of the flocking agents

    // Vicsek and Couzin models (units: world units and steps; headings in radians). With boundary = margin
    // these models do not turn at the edges: the plane is open beyond the spawn box.
    double speed = 0.03;              ///< constant speed per step (vicsek, couzin)
    double interaction_radius = 1.0;  ///< vicsek: neighbours closer than this (self included) are averaged
    double noise = 0.0;               ///< vicsek: width eta of the uniform angle noise; couzin: std dev (rad)
    double repulsion_radius = 1.0;    ///< couzin: zone of repulsion, alpha
    double attraction_radius = 6.0;   ///< couzin: zone of orientation and attraction, rho
    double turn_rate = 0.2;           ///< couzin: largest heading change per step (rad)
    double informed_weight = 0.5;     ///< couzin: omega, weight of an informed agent's preferred direction
    double noise_seed = 0.0;          ///< seed of the models' noise (integer); the CLI sets it from --seed

    bool operator==(const Params&) const = default;
};

/// Throws InputError naming the first field that is out of range or inconsistent with another.
void validate(const Params& params);

/// Sets one parameter from its text form (`--set`, scenario files, control port). The key `margin` sets
/// all four margins. Throws InputError for an unknown key, a malformed or out-of-range value; on error
/// `params` is unchanged. Cross-field checks are left to validate().
void set_param(Params& params, std::string_view key, std::string_view value);

/// The text form of one parameter, in shortest round-trip notation. Throws InputError for an unknown key.
[[nodiscard]] std::string get_param(const Params& params, std::string_view key);

/// Description of one settable key, for help texts, sliders and the control port.
struct ParamInfo {
    std::string_view key;
    std::string_view kind; ///< "number", "bool" or "choice"
    double min;            ///< inclusive lower bound (numbers)
    double max;            ///< inclusive upper bound (numbers)
    std::string_view help;
};

/// The name of a model ("classic", "vicsek", "couzin").
[[nodiscard]] std::string_view model_name(Model model);

/// Every readable parameter key, in a stable order (`margin` is write-only and not listed).
[[nodiscard]] std::span<const ParamInfo> param_table();

/// True when `key` can be passed to set_param (including the write-only `margin`).
[[nodiscard]] bool is_param_key(std::string_view key);

} // namespace boids
