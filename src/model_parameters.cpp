// Where each model's own parameters live inside Params: one struct per model, in the registry's order.

#include "boids/params.hpp"

#include "classic_rules.hpp"
#include "models/registry.hpp"

#include <tuple>

namespace boids {

namespace {

/// A model without parameters of its own (the classic model's are Params' top-level fields).
struct NoOwnParams {
    bool operator==(const NoOwnParams&) const = default;
};

template <class M>
struct OwnParamsOf {
    using type = NoOwnParams;
};
template <class M>
requires requires {
    typename M::Own;
}
struct OwnParamsOf<M> {
    using type = typename M::Own;
};

template <class List>
struct OwnParamsTuple;
template <class... M>
struct OwnParamsTuple<models::ModelList<M...>> {
    using type = std::tuple<typename OwnParamsOf<M>::type...>;
};

} // namespace

struct ModelParameters::Store {
    OwnParamsTuple<models::AllModels>::type values;
    bool operator==(const Store&) const = default;
};

ModelParameters::ModelParameters() : store_(std::make_unique<Store>()) {}
ModelParameters::~ModelParameters() = default;
ModelParameters::ModelParameters(const ModelParameters& other)
    : store_(std::make_unique<Store>(*other.store_)) {}

ModelParameters& ModelParameters::operator=(const ModelParameters& other) {
    *store_ = *other.store_;
    return *this;
}

bool ModelParameters::operator==(const ModelParameters& other) const {
    return *store_ == *other.store_;
}

void* ModelParameters::of(Model model) {
    return const_cast<void*>(std::as_const(*this).of(model));
}

const void* ModelParameters::of(Model model) const {
    return models::with_model(model, [&]<class M>() -> const void* {
        auto& own = std::get<static_cast<std::size_t>(M::id)>(store_->values);
        if constexpr (std::is_same_v<std::remove_cvref_t<decltype(own)>, NoOwnParams>) {
            return nullptr;
        } else {
            return &own;
        }
    });
}

bool classic::wraps_as_sprites(const Params& p) {
    return models::Topological::sprite_wrap(p);
}

} // namespace boids
