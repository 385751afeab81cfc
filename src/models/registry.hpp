#pragma once
// The one list of models (internal). Everything that depends on the model dispatches through
// with_model(), the way with_precision() dispatches by scalar type. A new model is its file in this
// folder, its value in the Model enum and one entry in AllModels.

#include "classic.hpp"
#include "couzin.hpp"
#include "topological.hpp"
#include "vicsek.hpp"
#include "weighted.hpp"

#include <cassert>
#include <cstddef>
#include <utility>

namespace boids::models {

template <class... M>
struct ModelList {
    static constexpr std::size_t size = sizeof...(M);

    /// Calls `f.template operator()<M>()` for each model in order.
    template <class F>
    static constexpr void for_each(F&& f) {
        (f.template operator()<M>(), ...);
    }

    /// True when the models' ids are 0, 1, 2, ... in list order: then the list is the enum.
    static constexpr bool in_enum_order() {
        std::size_t i = 0;
        return ((static_cast<std::size_t>(M::id) == i++) && ...);
    }
};

/// Every model, in the order of the Model enum.
using AllModels = ModelList<Classic, Topological, Weighted, Vicsek, Couzin>;
static_assert(AllModels::in_enum_order(), "AllModels must list the models in the order of the Model enum");

namespace detail {

template <class F, class First, class... Rest>
decltype(auto) dispatch(Model model, F&& f, ModelList<First, Rest...>) {
    if constexpr (sizeof...(Rest) == 0) {
        assert(First::id == model);
        return std::forward<F>(f).template operator()<First>();
    } else {
        if (First::id == model) {
            return std::forward<F>(f).template operator()<First>();
        }
        return dispatch(model, std::forward<F>(f), ModelList<Rest...>{});
    }
}

} // namespace detail

/// Calls `f.template operator()<M>()` with the descriptor of `model` and returns its result.
template <class F>
decltype(auto) with_model(Model model, F&& f) {
    return detail::dispatch(model, std::forward<F>(f), AllModels{});
}

} // namespace boids::models
