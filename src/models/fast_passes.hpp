#pragma once
// The models' fast passes (internal; slot_order_pass.hpp). Simulation finds a model's by its policy's
// namespace: a model without one (the classic model has its own fast step) takes neighbour_pass.

#include "couzin_fast.hpp"
#include "topological_fast.hpp"
#include "vicsek_fast.hpp"
#include "weighted_fast.hpp"
