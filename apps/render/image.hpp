#pragma once
// RGB images and PNG files (libpng), for screenshots and tests.

#include <cstdint>
#include <string>
#include <vector>

namespace boids::render {

/// An 8-bit RGB image, rows top to bottom.
struct RgbImage {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> rgb; ///< width * height * 3 bytes

    [[nodiscard]] const std::uint8_t* pixel(int x, int y) const {
        return rgb.data() +
               (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)) *
                   3;
    }
};

/// Writes `image` as a PNG file. Throws InputError naming the file if it cannot be written.
void write_png(const std::string& path, const RgbImage& image);

/// Reads a PNG file (any colour type) as RGB. Throws InputError naming the file on failure.
[[nodiscard]] RgbImage read_png(const std::string& path);

/// `image` cropped or padded (with `fill`) to `width` x `height`, anchored top-left.
[[nodiscard]] RgbImage fit_image(const RgbImage& image, int width, int height, const std::uint8_t fill[3]);

} // namespace boids::render
