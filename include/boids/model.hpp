#pragma once
/// The flocking models and what each can do. Each model is one file in src/models/ and one line of the
/// registry (BOIDS_MODELS below); this header is their public face.

#include <span>
#include <string_view>

namespace boids {

struct Params;

/// The registry: every model, one line each, in a stable order. The Model enum below, the registry's
/// type list (src/models/registry.hpp) and the list of model files the engine compiles are generated from
/// it; model `T`'s file is src/models/<t>.hpp, its name in lower case (docs/ARCHITECTURE.md, "Adding a
/// model"). docs/MODEL.md has each model's rules and sources.
#define BOIDS_MODELS(X)                                                                                      \
    X(Classic)     /* Adams and Land's rules (the ECE 4760 lab), with the extensions */                      \
    X(Topological) /* PyNBoids (Stromberg): heading steering from the k nearest neighbours */                \
    X(Weighted)    /* Downey: weighted arbitration of center / avoid / align / love (the carrot) */          \
    X(Vicsek)      /* Vicsek et al. 1995: constant speed, align within a radius, angular noise */            \
    X(Couzin)      /* Couzin et al. 2005: zones, turning limit, informed agents */

/// Which flocking model moves the boids: one value per line of BOIDS_MODELS, in its order.
enum class Model {
#define BOIDS_MODEL_ENUM_VALUE(T) T,
    BOIDS_MODELS(BOIDS_MODEL_ENUM_VALUE)
#undef BOIDS_MODEL_ENUM_VALUE
};

/// What a model can do; every decision that depends on the model reads these.
struct ModelAbilities {
    bool three_d = false;          ///< runs with dimensions = 3
    bool fix15 = false;            ///< runs in the lab's fixed point
    bool sequential = false;       ///< offers the in-place update (update = sequential)
    bool hunting = false;          ///< moves predators by predator_behavior (else predators keep course)
    bool turns_at_margins = false; ///< steers back inside the margins (else they bound only the spawn box)
    bool extensions = false;       ///< takes the classic extensions (field of view, gravity, perching, ...)
    bool carrot = false;           ///< has an attractor (the carrot) that the viewer's mouse can move
};

/// The name users type for a model: "classic", "topological", "weighted", "vicsek", "couzin".
[[nodiscard]] std::string_view model_name(Model model);

/// What `model` can do.
[[nodiscard]] ModelAbilities model_abilities(Model model);

/// Every model, in the registry's order (the order of the Model enum).
[[nodiscard]] std::span<const Model> all_models();

/// The cell size the neighbour grid needs for the parameters' model (0: the grid chooses, k-nearest).
[[nodiscard]] double grid_range(const Params& params);

/// The distance within which two agents count as linked in the metrics' group count: the range the
/// parameters' model uses to find the neighbours it aligns with.
[[nodiscard]] double link_range(const Params& params);

} // namespace boids
