#pragma once
/// Every parameter of every model with its default (docs/MODEL.md), the key table, and validation.

#include "boids/food.hpp"
#include "boids/model.hpp"
#include "boids/obstacle.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace boids {

/// How the world's edges behave.
enum class Boundary {
    Margin, ///< boids turn back inside the margins (docs/MODEL.md §2.5)
    Wrap,   ///< torus: positions wrap, distances use the minimum image, no edge turning
};

/// How predators hunt (the ECE 4760 lab page's "smart predator" extension, docs/MODEL.md §3.3).
enum class PredatorBehavior {
    Edge,          ///< the lab's predator: only turns at the edges
    ChaseCentroid, ///< steers toward the centre of mass of the boids it sees
    Pursue,        ///< locks on one boid in sight (the nearest) and follows it until it escapes
};

/// How a step orders its agents' updates.
enum class UpdateOrder {
    Synchronous, ///< everyone reads the previous step's state (double buffering; docs/MODEL.md §1.2)
    Sequential,  ///< the lab's in-place loop: agents in array order, each seeing those before it updated
};

/// Where a boid's flight from predators comes in its rule sequence (docs/MODEL.md §2.6).
enum class PredatorOrder {
    AfterEdges,     ///< Adams' VGA predator page: after separation and the edges (the boid's velocity so far)
    BeforeFlocking, ///< the ECE 4760 lab page: first, so cohesion and alignment read the kicked velocity
};

/// How the speed limit measures speed (docs/MODEL.md §2.8).
enum class SpeedEstimate {
    Exact,           ///< sqrt(vx^2 + vy^2)
    AlphaMaxBetaMin, ///< 0.960433870103 max(|vx|,|vy|) + 0.397824734759 min(|vx|,|vy|), the lab's shortcut
};

/// What the constant-speed heading models (Vicsek, Couzin) share (keys in src/models/heading.hpp).
/// Units: world units and steps; headings in radians.
struct HeadingParams {
    double speed = 0.03; ///< constant speed per step
    double noise = 0.0;  ///< vicsek: width eta of the uniform angle noise; couzin: std dev (rad)
    bool operator==(const HeadingParams&) const = default;
};

/// The parameters each model other than the classic one keeps for itself, declared in the model's file
/// (src/models/<model>.hpp). Read and write them by key: set_param(), get_param(), param_table(). A
/// value: copies are deep and == compares every model's parameters.
class ModelParameters {
public:
    ModelParameters();
    ~ModelParameters();
    ModelParameters(const ModelParameters& other);
    ModelParameters& operator=(const ModelParameters& other);
    bool operator==(const ModelParameters& other) const;

    /// Internal, for the models' files: the parameter struct `model` keeps, or nullptr when it has none.
    [[nodiscard]] void* of(Model model);
    [[nodiscard]] const void* of(Model model) const;

private:
    struct Store;
    std::unique_ptr<Store> store_;
};

/// Every tunable. The world, the agents' kinematics and the classic model's rules and extensions are at the
/// top level (the classic model is the engine's base: its speeds bound every model's spawn and its margins
/// and ranges every predator); each other model keeps its own parameters in `models`, reached by key. Units:
/// pixels and pixels per step (time step 1). Defaults are the `vga-predator` preset (Adams' VGA predator
/// page) with the scout values of Adams' VGA scouts page.
struct Params {
    double width = 640.0;              ///< world width in pixels
    double height = 480.0;             ///< world height in pixels (y grows downward)
    double margin_left = 100.0;        ///< boids left of this x turn right
    double margin_right = 100.0;       ///< boids right of width - margin_right turn left
    double margin_top = 100.0;         ///< boids above this y turn down
    double margin_bottom = 100.0;      ///< boids below height - margin_bottom turn up
    int dimensions = 2;                ///< 2 (x, y) or 3 (x, y, z: classic and weighted models)
    double depth = 480.0;              ///< 3D: world depth in pixels (z from 0, the front, to depth)
    double margin_front = 100.0;       ///< 3D: boids with z below this turn back
    double margin_back = 100.0;        ///< 3D: boids with z above depth - margin_back turn forward
    double turn_factor = 0.2;          ///< velocity change per step at an edge
    double visual_range = 40.0;        ///< neighbours closer than this are averaged (cohesion, alignment)
    double protected_range = 8.0;      ///< neighbours closer than this are avoided (separation)
    double centering_factor = 0.0005;  ///< cohesion gain toward the neighbours' centre
    double avoid_factor = 0.05;        ///< separation gain
    double matching_factor = 0.05;     ///< alignment gain toward the neighbours' mean velocity
    double max_speed = 6.0;            ///< speed is clamped to at most this
    double min_speed = 3.0;            ///< speed is raised to at least this
    double predator_range = 100.0;     ///< boids react to predators closer than this
    double predator_turn_factor = 0.5; ///< velocity change per step away from predators
    bool dynamic_bias = false;         ///< scouts' bias grows while they move their way (docs/MODEL.md §2.7)
    double max_bias = 0.01;            ///< upper bound of a scout's dynamic bias
    double bias_increment = 0.00004;   ///< dynamic bias step; also its lower bound
    double scout1_bias = 0.001;        ///< bias of scout group 1 (toward +x): initial if dynamic, else fixed
    double scout2_bias = 0.001;        ///< bias of scout group 2 (toward -x): initial if dynamic, else fixed
    Boundary boundary = Boundary::Margin; ///< margin or wrap
    Model model = Model::Classic;         ///< which model moves the boids
    double fov_angle = 360.0;             ///< classic: degrees of the view cone around the velocity
    PredatorBehavior predator_behavior = PredatorBehavior::Edge; ///< edge, chase-centroid or pursue
    PredatorOrder predator_order = PredatorOrder::AfterEdges;    ///< when boids flee predators
    double predator_speed = 0.0;       ///< predators fly at exactly this speed; 0 = the boids' limits
    double predator_vision = 150.0;    ///< how far a hunting predator sees boids
    double predator_hunt_factor = 0.3; ///< velocity change per step toward its prey
    double gravity = 0.0;              ///< downward (+y) acceleration, pixels per step^2
    double max_dive_speed = 0.0;       ///< speed limit while descending (vy > 0); 0 = max_speed
    double line_of_sight_factor = 0.0; ///< Flake's rule: sideways push when a neighbour is dead ahead
    double line_of_sight_angle = 15.0; ///< half-angle in degrees of "dead ahead"
    double perch_rest_min = 0.0;       ///< perching: shortest rest in steps (both 0 = no perching)
    double perch_rest_max = 0.0;       ///< perching: longest rest in steps
    double ledge_y = -1.0;             ///< perching ledge height; negative = the bottom margin line
    double ledge_x0 = -1.0;            ///< ledge's left end; negative = margin_left
    double ledge_x1 = -1.0;            ///< ledge's right end; negative = width - margin_right
    double obstacle_margin = 20.0;     ///< boids closer than this to an obstacle steer away from it
    double obstacle_turn_factor = 0.5; ///< velocity change per step away from an obstacle
    std::vector<Obstacle> obstacles;   ///< circles and rectangles (scenario [[obstacles]], --obstacle)
    std::vector<FoodSource> food;      ///< attractors (scenario [[food]], --food)
    UpdateOrder update = UpdateOrder::Synchronous;       ///< synchronous or the lab's sequential loop
    SpeedEstimate speed_estimate = SpeedEstimate::Exact; ///< exact or alpha-max-beta-min

    HeadingParams heading;   ///< model = vicsek or couzin
    ModelParameters models;  ///< every other model's own parameters (keys in src/models/<model>.hpp)
    double noise_seed = 0.0; ///< vicsek, couzin: seed of the noise (integer); the CLI sets it from --seed

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

/// The value of a numeric key (every key param_table() lists as "number"), e.g. a model's own parameter
/// such as "carrot_x". Throws InputError for an unknown key or one that is not a number.
[[nodiscard]] double get_number(const Params& params, std::string_view key);

/// Sets a numeric key to `value`, which must lie in the key's allowed range. Throws InputError otherwise;
/// on error `params` is unchanged. Cross-field checks are left to validate().
void set_number(Params& params, std::string_view key, double value);

/// How the viewer's panel shows a numeric key.
enum class SliderScale : std::uint8_t {
    Linear,
    Log, ///< factors and wide ranges
};

/// Description of one settable key, for help texts, validation, sliders and the control port. The table
/// is assembled from the world's keys (src/params.cpp), each model's key table (src/models/) and the
/// classic extensions' (src/models/classic.hpp).
struct ParamInfo {
    std::string_view key;
    std::string_view kind; ///< "number", "bool" or "choice"
    double min;            ///< inclusive lower bound (numbers)
    double max;            ///< inclusive upper bound (numbers)
    std::string_view help;
    std::string_view label = {}; ///< short text beside the panel's slider
    std::string_view group =
        {}; ///< panel section: World, Edges, Flocking, Predators, Scouts, Extensions, or a model
    double slider_min = 0; ///< the panel's slider range (within [min, max]; typed values may go beyond)
    double slider_max = 0;
    SliderScale scale = SliderScale::Linear;
    std::uint32_t models = 0; ///< bit m set: Model m uses the key (see key_used_by)
    double default_value = 0; ///< numbers: the value in Params{}
};

/// Every readable parameter key, in a stable order (`margin` is write-only and not listed).
[[nodiscard]] std::span<const ParamInfo> param_table();

/// The table entry of `key`, or nullptr (also for the write-only `margin`).
[[nodiscard]] const ParamInfo* find_param(std::string_view key);

/// True when `model` reads the key (world keys are read by every model).
[[nodiscard]] bool key_used_by(const ParamInfo& info, Model model);

/// Throws InputError when a key that was set explicitly (a scenario's [params], --set, the control port,
/// Python) is one the chosen model does not read: such a value would do nothing, silently.
void require_key_used(const Params& params, std::string_view key);

/// The allowed values of a bool or choice key, as "a | b" (empty for numbers and unknown keys).
[[nodiscard]] std::string choice_list(std::string_view key);

/// True when `key` can be passed to set_param (including the write-only `margin`).
[[nodiscard]] bool is_param_key(std::string_view key);

} // namespace boids
