#include "boids/hash.hpp"

#include "boids/fix15.hpp"

#include <cstring>

namespace boids {

namespace {

constexpr std::uint64_t fnv_offset = 0xcbf29ce484222325ull;
constexpr std::uint64_t fnv_prime = 0x100000001b3ull;

template <class T>
void mix(std::uint64_t& h, const T& value) {
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    for (unsigned char b : bytes) {
        h = (h ^ b) * fnv_prime;
    }
}

} // namespace

template <class Real>
std::uint64_t state_hash(const World<Real>& world) {
    std::uint64_t h = fnv_offset;
    for (std::size_t i = 0; i < world.size(); ++i) {
        mix(h, static_cast<std::uint8_t>(world.kind[i]));
        mix(h, world.x[i]);
        mix(h, world.y[i]);
        mix(h, world.vx[i]);
        mix(h, world.vy[i]);
        mix(h, world.bias[i]);
        mix(h, world.target[i]);
        mix(h, world.rest[i]);
        if (world.has_depth()) { // planar hashes are unchanged by the third axis's existence
            mix(h, world.z[i]);
            mix(h, world.vz[i]);
        }
    }
    return h;
}

template std::uint64_t state_hash(const World<float>&);
template std::uint64_t state_hash(const World<double>&);
template std::uint64_t state_hash(const World<Fix15>&);

} // namespace boids
