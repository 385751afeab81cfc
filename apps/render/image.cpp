#include "image.hpp"

#include "boids/error.hpp"

#include <png.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>

namespace boids::render {

namespace {

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

} // namespace

void write_png(const std::string& path, const RgbImage& image) {
    File file(std::fopen(path.c_str(), "wb"));
    if (!file) {
        throw InputError("screenshot: cannot write '" + path + "': " + std::strerror(errno));
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png ? png_create_info_struct(png) : nullptr;
    if (png == nullptr || info == nullptr) {
        png_destroy_write_struct(&png, nullptr);
        throw std::runtime_error("libpng: out of memory");
    }
    // libpng reports errors by longjmp; nothing with a destructor is created between here and the end.
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        throw InputError("screenshot: writing '" + path + "' failed");
    }
    png_init_io(png, file.get());
    png_set_IHDR(png, info, static_cast<png_uint_32>(image.width), static_cast<png_uint_32>(image.height), 8,
                 PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < image.height; ++y) {
        png_write_row(png, const_cast<png_bytep>(image.pixel(0, y)));
    }
    png_write_end(png, nullptr);
    png_destroy_write_struct(&png, &info);
}

RgbImage read_png(const std::string& path) {
    File file(std::fopen(path.c_str(), "rb"));
    if (!file) {
        throw InputError("cannot read '" + path + "': " + std::strerror(errno));
    }
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png ? png_create_info_struct(png) : nullptr;
    if (png == nullptr || info == nullptr) {
        png_destroy_read_struct(&png, nullptr, nullptr);
        throw std::runtime_error("libpng: out of memory");
    }
    RgbImage image;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, nullptr);
        throw InputError("'" + path + "' is not a readable PNG file");
    }
    png_init_io(png, file.get());
    png_read_info(png, info);
    png_set_expand(png);
    png_set_strip_16(png);
    png_set_strip_alpha(png);
    png_set_gray_to_rgb(png);
    png_read_update_info(png, info);
    image.width = static_cast<int>(png_get_image_width(png, info));
    image.height = static_cast<int>(png_get_image_height(png, info));
    image.rgb.resize(static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * 3);
    for (int y = 0; y < image.height; ++y) {
        png_read_row(png, const_cast<png_bytep>(image.pixel(0, y)), nullptr);
    }
    png_read_end(png, nullptr);
    png_destroy_read_struct(&png, &info, nullptr);
    return image;
}

RgbImage fit_image(const RgbImage& image, int width, int height, const std::uint8_t fill[3]) {
    RgbImage out;
    out.width = width;
    out.height = height;
    out.rgb.resize(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 3);
    for (std::size_t i = 0; i < out.rgb.size(); i += 3) {
        std::memcpy(&out.rgb[i], fill, 3);
    }
    const int w = std::min(width, image.width);
    for (int y = 0; y < std::min(height, image.height); ++y) {
        std::memcpy(const_cast<std::uint8_t*>(out.pixel(0, y)), image.pixel(0, y),
                    static_cast<std::size_t>(w) * 3);
    }
    return out;
}

} // namespace boids::render
