#include "flock_renderer.hpp"
#include "boids/fix15.hpp"

#include <epoxy/gl.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>
#include <utility>

namespace boids::render {

namespace {

/// Level of detail of a 2D flock: below this many view pixels per agent, arrows would overlap into a
/// texture anyway, so the flock is drawn as one image the CPU writes, a dot per agent in its heading colour
/// (no vertex work: with software GL drawing is most of a frame at large N)...
constexpr double image_pixels_per_agent = 16.0;
/// ... with 2 x 2 dots while there are at least this many pixels per agent, single pixels below.
constexpr double big_dot_pixels_per_agent = 4.0;

/// The flock image over the whole view: a quad from four vertices made in the shader, row 0 at the top.
const char* image_vertex_shader = R"(#version 330 core
out vec2 uv;
void main() {
    vec2 p = vec2(float(gl_VertexID & 1) * 2.0 - 1.0, float(gl_VertexID >> 1) * 2.0 - 1.0);
    uv = vec2((p.x + 1.0) * 0.5, (1.0 - p.y) * 0.5);
    gl_Position = vec4(p, 0.0, 1.0);
}
)";

const char* image_fragment_shader = R"(#version 330 core
in vec2 uv;
uniform sampler2D image;
out vec4 colour_out;
void main() { colour_out = texture(image, uv); }
)";

const char* arrow_vertex_shader = R"(#version 330 core
layout(location = 0) in vec2 corner;   // arrow outline, unit length, pointing along +x
layout(location = 1) in vec4 agent;    // x, y, vx, vy in world units
uniform float scale;                   // world -> pixels
uniform vec2 offset;                   // pixels
uniform vec2 viewport;                 // pixels
uniform float size_world;              // arrow length in world units
uniform float min_pixels;              // ... but never smaller than this on screen
uniform int by_heading;                // 1: hue from the heading; 0: fixed colour
uniform vec3 colour;
out vec3 shade;

vec3 hsv_to_rgb(float h, float s, float v) {
    vec3 k = clamp(abs(mod(h * 6.0 + vec3(0.0, 4.0, 2.0), 6.0) - 3.0) - 1.0, 0.0, 1.0);
    return v * mix(vec3(1.0), k, s);
}

void main() {
    vec2 v = agent.zw;
    float speed = length(v);
    vec2 dir = speed > 0.0 ? v / speed : vec2(1.0, 0.0);
    float size = max(size_world * scale, min_pixels);
    vec2 c = corner * size;
    vec2 turned = vec2(c.x * dir.x - c.y * dir.y, c.x * dir.y + c.y * dir.x);
    vec2 pixel = agent.xy * scale + offset + turned;
    gl_Position = vec4(pixel.x / viewport.x * 2.0 - 1.0, 1.0 - pixel.y / viewport.y * 2.0, 0.0, 1.0);
    shade = by_heading == 1 ? hsv_to_rgb(atan(v.y, v.x) / 6.28318530718 + 0.5, 0.8, 1.0) : colour;
}
)";

const char* line_vertex_shader = R"(#version 330 core
layout(location = 0) in vec2 point;    // world units
uniform float scale;
uniform vec2 offset;
uniform vec2 viewport;
void main() {
    vec2 pixel = point * scale + offset;
    gl_Position = vec4(pixel.x / viewport.x * 2.0 - 1.0, 1.0 - pixel.y / viewport.y * 2.0, 0.0, 1.0);
}
)";

// 3D: each arrow is still a flat triangle in screen space, turned along its heading as projected, so it
// reads at any distance; perspective sizes it (size_world at depth w is size_world * focal / w pixels), a
// heading toward or away from the camera shortens it, and distance fades it toward the background.
const char* arrow3d_vertex_shader = R"(#version 330 core
layout(location = 0) in vec2 corner;   // arrow outline, unit length, pointing along +x
layout(location = 1) in vec3 position; // world units
layout(location = 2) in vec3 velocity;
uniform mat4 view_projection;
uniform vec2 viewport;                 // pixels
uniform float focal;                   // pixels per world unit at depth 1
uniform float size_world;
uniform float min_pixels;
uniform int by_heading;
uniform vec3 colour;
uniform vec3 background;
uniform vec2 depth_range;              // near and far depth of the world box
uniform float floor_y;                 // >= 0: draw the agent's shadow on the floor y = floor_y instead
uniform vec3 shadow_colour;
out vec3 shade;

vec3 hsv_to_rgb(float h, float s, float v) {
    vec3 k = clamp(abs(mod(h * 6.0 + vec3(0.0, 4.0, 2.0), 6.0) - 3.0) - 1.0, 0.0, 1.0);
    return v * mix(vec3(1.0), k, s);
}

void main() {
    bool shadow = floor_y >= 0.0;
    vec3 at = shadow ? vec3(position.x, floor_y, position.z) : position;
    vec3 v = shadow ? vec3(velocity.x, 0.0, velocity.z) : velocity;
    float speed = length(v);
    vec3 dir3 = speed > 0.0 ? v / speed : vec3(1.0, 0.0, 0.0);
    vec4 tail = view_projection * vec4(at, 1.0);
    vec4 head = view_projection * vec4(at + dir3 * size_world, 1.0);
    float w = max(tail.w, 1e-4);
    vec2 half_view = 0.5 * viewport;
    vec2 s0 = tail.xy / w * half_view;
    vec2 s1 = head.xy / max(head.w, 1e-4) * half_view;
    float size = max(size_world * focal / w, min_pixels);
    vec2 d = s1 - s0;
    float len = length(d);
    vec2 dir = len > 1e-4 ? d / len : vec2(1.0, 0.0);
    float along = clamp(len / max(size_world * focal / w, 1e-4), 0.35, 1.0); // foreshortening
    vec2 c = vec2(corner.x * size * along, corner.y * size);
    vec2 turned = vec2(c.x * dir.x - c.y * dir.y, c.x * dir.y + c.y * dir.x);
    gl_Position = vec4((s0 + turned) / half_view * w, tail.z, w);
    // Hue from the heading in the horizontal (x, z) plane, lit by a light above and in front (an arrow
    // climbing toward it is brighter than one diving away); brightness falls with distance (fog).
    vec3 base = by_heading == 1 ? hsv_to_rgb(atan(velocity.z, velocity.x) / 6.28318530718 + 0.5, 0.8, 1.0)
                                : colour;
    float lit = 0.8 + 0.2 * dot(dir3, normalize(vec3(0.3, -0.8, -0.5)));
    float far = clamp((w - depth_range.x) / max(depth_range.y - depth_range.x, 1e-4), 0.0, 1.0);
    shade = shadow ? shadow_colour : mix(base * lit, background, 0.7 * far);
}
)";

const char* line3d_vertex_shader = R"(#version 330 core
layout(location = 0) in vec3 point;    // world units
uniform mat4 view_projection;
void main() { gl_Position = view_projection * vec4(point, 1.0); }
)";

const char* arrow_fragment_shader = R"(#version 330 core
in vec3 shade;
out vec4 colour_out;
void main() { colour_out = vec4(shade, 1.0); }
)";

const char* line_fragment_shader = R"(#version 330 core
uniform vec4 colour;
out vec4 colour_out;
void main() { colour_out = colour; }
)";

// An arrow head: a narrow isosceles triangle pointing along +x, centred near the agent's position. Three
// vertices rather than a notched dart: with software GL, vertex work dominates at a million agents.
constexpr float arrow_outline[] = {0.6f, 0.0f, -0.4f, 0.35f, -0.4f, -0.35f};

struct KindStyle {
    float size_world; // arrow length in world units
    float min_pixels;
    int by_heading;
    float rgb[3];
};

constexpr KindStyle styles[kind_count] = {
    {8.0f, 3.0f, 1, {0, 0, 0}},           // boid: hue by heading
    {10.0f, 4.0f, 0, {1.0f, 1.0f, 1.0f}}, // scout 1: white
    {10.0f, 4.0f, 0, {0.5f, 0.5f, 0.5f}}, // scout 2: grey (boids take every hue, so scouts are unsaturated)
    {20.0f, 9.0f, 0, {1.0f, 0.1f, 0.1f}}, // predator: red, larger
};

unsigned compile(unsigned type, const char* source) {
    const unsigned shader = glCreateShader(type);
    glShaderSource(shader, 1, &source, nullptr);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024];
        glGetShaderInfoLog(shader, sizeof log, nullptr, log);
        throw std::runtime_error(std::string("OpenGL shader compilation failed: ") + log);
    }
    return shader;
}

unsigned link(const char* vertex, const char* fragment) {
    const unsigned vs = compile(GL_VERTEX_SHADER, vertex);
    const unsigned fs = compile(GL_FRAGMENT_SHADER, fragment);
    const unsigned program = glCreateProgram();
    glAttachShader(program, vs);
    glAttachShader(program, fs);
    glLinkProgram(program);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[1024];
        glGetProgramInfoLog(program, sizeof log, nullptr, log);
        throw std::runtime_error(std::string("OpenGL program link failed: ") + log);
    }
    return program;
}

// Scene shapes, built on the CPU in world units each frame (a handful of obstacles and sources).

/// Segments of a circle of `radius_px` pixels on screen: smooth at any zoom, cheap when small.
int segments(double radius_px) {
    return std::clamp(static_cast<int>(radius_px), 24, 160);
}

/// A filled circle as a triangle fan: the centre, then the rim closed.
std::vector<float> disc(double cx, double cy, double r, int n) {
    std::vector<float> v{static_cast<float>(cx), static_cast<float>(cy)};
    for (int i = 0; i <= n; ++i) {
        const double a = 2.0 * std::numbers::pi * i / n;
        v.push_back(static_cast<float>(cx + r * std::cos(a)));
        v.push_back(static_cast<float>(cy + r * std::sin(a)));
    }
    return v;
}

/// A circle's outline as a line loop.
std::vector<float> ring(double cx, double cy, double r, int n) {
    std::vector<float> v;
    for (int i = 0; i < n; ++i) {
        const double a = 2.0 * std::numbers::pi * i / n;
        v.push_back(static_cast<float>(cx + r * std::cos(a)));
        v.push_back(static_cast<float>(cy + r * std::sin(a)));
    }
    return v;
}

/// An axis-aligned rectangle's corners, for a triangle fan (fill) or a line loop (outline).
std::vector<float> box(double x0, double y0, double x1, double y1) {
    return {static_cast<float>(x0), static_cast<float>(y0), static_cast<float>(x1), static_cast<float>(y0),
            static_cast<float>(x1), static_cast<float>(y1), static_cast<float>(x0), static_cast<float>(y1)};
}

/// A closed path as dashes (GL_LINES pairs) of length `dash`, as long gaps between them: told apart from
/// the solid border and margin lines.
std::vector<float> dashed_loop(const std::vector<std::pair<double, double>>& path, double dash) {
    std::vector<float> v;
    for (std::size_t i = 0; i < path.size(); ++i) {
        const auto [ax, ay] = path[i];
        const auto [bx, by] = path[(i + 1) % path.size()];
        const double length = std::hypot(bx - ax, by - ay);
        for (double s = 0; s < length && v.size() < 200'000; s += 2 * dash) {
            const double e = std::min(length, s + dash);
            v.push_back(static_cast<float>(ax + (bx - ax) * s / length));
            v.push_back(static_cast<float>(ay + (by - ay) * s / length));
            v.push_back(static_cast<float>(ax + (bx - ax) * e / length));
            v.push_back(static_cast<float>(ay + (by - ay) * e / length));
        }
    }
    return v;
}

constexpr float channel(std::uint8_t c) {
    return static_cast<float>(c) / 255.0f;
}

void set_view(unsigned program, const ViewTransform& view, int w, int h) {
    glUniform1f(glGetUniformLocation(program, "scale"), static_cast<float>(view.scale));
    glUniform2f(glGetUniformLocation(program, "offset"), static_cast<float>(view.offset_x),
                static_cast<float>(view.offset_y));
    glUniform2f(glGetUniformLocation(program, "viewport"), static_cast<float>(w), static_cast<float>(h));
}

/// A circle of radius r about c in the plane spanned by unit axes u and v, as world points for a line loop.
std::vector<float> circle_3d(Vec3 c, double r, Vec3 u, Vec3 v, int n) {
    std::vector<float> out;
    for (int i = 0; i < n; ++i) {
        const double a = 2.0 * std::numbers::pi * i / n;
        const Vec3 p = c + u * (r * std::cos(a)) + v * (r * std::sin(a));
        out.insert(out.end(), {static_cast<float>(p.x), static_cast<float>(p.y), static_cast<float>(p.z)});
    }
    return out;
}

/// The 12 edges of an axis-aligned box, as GL_LINES pairs.
std::vector<float> box_edges(Vec3 lo, Vec3 hi) {
    std::vector<float> out;
    const auto corner = [&](int i) {
        return Vec3{(i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z};
    };
    for (int i = 0; i < 8; ++i) {
        for (int bit : {1, 2, 4}) {
            if ((i & bit) == 0) {
                for (const Vec3 p : {corner(i), corner(i | bit)}) {
                    out.insert(out.end(),
                               {static_cast<float>(p.x), static_cast<float>(p.y), static_cast<float>(p.z)});
                }
            }
        }
    }
    return out;
}

} // namespace

FlockRenderer::FlockRenderer() {
    if (epoxy_gl_version() < 33) {
        throw std::runtime_error("OpenGL 3.3 is required, the context offers " +
                                 std::to_string(epoxy_gl_version() / 10) + "." +
                                 std::to_string(epoxy_gl_version() % 10));
    }
    arrow_program_ = link(arrow_vertex_shader, arrow_fragment_shader);
    line_program_ = link(line_vertex_shader, line_fragment_shader);
    image_program_ = link(image_vertex_shader, image_fragment_shader);
    glGenVertexArrays(1, &image_vao_);
    glGenTextures(1, &image_texture_);
    glBindTexture(GL_TEXTURE_2D, image_texture_);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);

    glGenBuffers(1, &arrow_vertices_);
    glBindBuffer(GL_ARRAY_BUFFER, arrow_vertices_);
    glBufferData(GL_ARRAY_BUFFER, sizeof arrow_outline, arrow_outline, GL_STATIC_DRAW);
    glGenVertexArrays(kind_count, arrow_vaos_.data());
    glGenBuffers(kind_count, instance_buffers_.data());
    for (int k = 0; k < kind_count; ++k) {
        glBindVertexArray(arrow_vaos_[k]);
        glBindBuffer(GL_ARRAY_BUFFER, arrow_vertices_);
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), nullptr);
        glBindBuffer(GL_ARRAY_BUFFER, instance_buffers_[k]);
        glEnableVertexAttribArray(1);
        glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 4 * sizeof(float), nullptr);
        glVertexAttribDivisor(1, 1);
    }
    glGenVertexArrays(1, &line_vao_);
    glGenBuffers(1, &line_buffer_);
    glBindVertexArray(line_vao_);
    glBindBuffer(GL_ARRAY_BUFFER, line_buffer_);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), nullptr);

    // 3D: instances of six floats (x, y, z, vx, vy, vz), and lines of world points.
    arrow3d_program_ = link(arrow3d_vertex_shader, arrow_fragment_shader);
    line3d_program_ = link(line3d_vertex_shader, line_fragment_shader);
    glGenVertexArrays(kind_count, arrow3d_vaos_.data());
    glGenBuffers(kind_count, instance3d_buffers_.data());
    for (int k = 0; k < kind_count; ++k) {
        glBindVertexArray(arrow3d_vaos_[k]);
        glBindBuffer(GL_ARRAY_BUFFER, arrow_vertices_);
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), nullptr);
        glBindBuffer(GL_ARRAY_BUFFER, instance3d_buffers_[k]);
        glEnableVertexAttribArray(1);
        glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), nullptr);
        glVertexAttribDivisor(1, 1);
        glEnableVertexAttribArray(2);
        glVertexAttribPointer(2, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float),
                              reinterpret_cast<const void*>(3 * sizeof(float)));
        glVertexAttribDivisor(2, 1);
    }
    glGenVertexArrays(1, &line3d_vao_);
    glGenBuffers(1, &line3d_buffer_);
    glBindVertexArray(line3d_vao_);
    glBindBuffer(GL_ARRAY_BUFFER, line3d_buffer_);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 3 * sizeof(float), nullptr);
    glBindVertexArray(0);
}

FlockRenderer::~FlockRenderer() {
    glDeleteTextures(1, &image_texture_);
    glDeleteVertexArrays(1, &image_vao_);
    glDeleteProgram(image_program_);
    glDeleteVertexArrays(kind_count, arrow_vaos_.data());
    glDeleteBuffers(kind_count, instance_buffers_.data());
    glDeleteBuffers(1, &arrow_vertices_);
    glDeleteVertexArrays(1, &line_vao_);
    glDeleteBuffers(1, &line_buffer_);
    glDeleteProgram(arrow_program_);
    glDeleteProgram(line_program_);
    glDeleteVertexArrays(kind_count, arrow3d_vaos_.data());
    glDeleteBuffers(kind_count, instance3d_buffers_.data());
    glDeleteVertexArrays(1, &line3d_vao_);
    glDeleteBuffers(1, &line3d_buffer_);
    glDeleteProgram(arrow3d_program_);
    glDeleteProgram(line3d_program_);
}

template <class Real>
void FlockRenderer::upload(const World<Real>& world) {
    const AgentCounts c = world.counts();
    const long long per_kind[kind_count] = {c.boids, c.scouts1, c.scouts2, c.predators};
    uploaded_3d_ = world.has_depth();
    const std::size_t stride = uploaded_3d_ ? 6 : 4;
    for (int k = 0; k < kind_count; ++k) {
        staging_[k].resize(static_cast<std::size_t>(per_kind[k]) * stride);
        counts_[k] = 0;
    }
    const auto f = [](Real v) { return static_cast<float>(static_cast<double>(v)); };
    for (std::size_t i = 0; i < world.size(); ++i) {
        const int k = static_cast<int>(world.kind[i]);
        float* out = staging_[k].data() + static_cast<std::size_t>(counts_[k]++) * stride;
        if (uploaded_3d_) {
            for (const Real v : {world.x[i], world.y[i], world.z[i], world.vx[i], world.vy[i], world.vz[i]}) {
                *out++ = f(v);
            }
        } else {
            for (const Real v : {world.x[i], world.y[i], world.vx[i], world.vy[i]}) {
                *out++ = f(v);
            }
        }
    }
    uploaded_.fill(false); // to GL when drawn as instances (upload_instances): a flock image needs none
}

void FlockRenderer::upload_instances(int kind, bool three_d) {
    const auto k = static_cast<std::size_t>(kind);
    if (uploaded_[k]) {
        return;
    }
    uploaded_[k] = true;
    glBindBuffer(GL_ARRAY_BUFFER, three_d ? instance3d_buffers_[k] : instance_buffers_[k]);
    // Orphan the old storage so the driver need not wait for the previous frame's draw.
    const auto bytes = static_cast<GLsizeiptr>(staging_[k].size() * sizeof(float));
    glBufferData(GL_ARRAY_BUFFER, bytes, nullptr, GL_STREAM_DRAW);
    if (bytes > 0) {
        glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, staging_[k].data());
    }
}

namespace {

/// The heading colours of the arrow shaders (hue = heading angle, saturation 0.8, value 1) in a table of
/// 1024 hues, as packed RGBA.
const std::array<std::uint32_t, 1024>& heading_hues() {
    static const std::array<std::uint32_t, 1024> hues = [] {
        std::array<std::uint32_t, 1024> t{};
        for (std::size_t i = 0; i < t.size(); ++i) {
            const double h = static_cast<double>(i) / static_cast<double>(t.size());
            std::uint32_t rgba = 0xff000000u;
            for (int c = 0; c < 3; ++c) {
                const double n = std::array{0.0, 4.0, 2.0}[static_cast<std::size_t>(c)];
                const double k = std::clamp(std::abs(std::fmod(h * 6.0 + n, 6.0) - 3.0) - 1.0, 0.0, 1.0);
                const double v = 1.0 * (1.0 + 0.8 * (k - 1.0)); // v * mix(1, k, s) with s = 0.8, v = 1
                rgba |= static_cast<std::uint32_t>(std::lround(v * 255.0)) << (8 * c);
            }
            t[i] = rgba;
        }
        return t;
    }();
    return hues;
}

/// The hue table's entry for a heading angle (radians, as atan2 gives it).
std::uint32_t heading_colour(double angle) {
    constexpr double turn = 1.0 / 6.28318530717958647692;
    return heading_hues()[static_cast<std::size_t>((angle * turn + 0.5) * 1024.0) & 1023u];
}

} // namespace

void FlockRenderer::draw_flock_image(int kind, const ViewTransform& view, int view_width, int view_height,
                                     int dot) {
    const auto w = static_cast<std::size_t>(view_width), h = static_cast<std::size_t>(view_height);
    image_pixels_.assign(w * h, 0u);
    const std::vector<float>& agents = staging_[static_cast<std::size_t>(kind)];
    for (std::size_t i = 0; i + 3 < agents.size(); i += 4) {
        const double px = view.to_pixel_x(agents[i]), py = view.to_pixel_y(agents[i + 1]);
        if (px < 0 || py < 0 || px >= static_cast<double>(w - 1) || py >= static_cast<double>(h - 1)) {
            continue;
        }
        const std::uint32_t colour = heading_colour(
            std::atan2(static_cast<double>(agents[i + 3]), static_cast<double>(agents[i + 2])));
        std::uint32_t* at =
            image_pixels_.data() + static_cast<std::size_t>(py) * w + static_cast<std::size_t>(px);
        at[0] = colour;
        if (dot == 2) {
            at[1] = at[w] = at[w + 1] = colour;
        }
    }
    show_flock_image(view_width, view_height);
}

void FlockRenderer::draw_flock_image_3d(int kind, const OrbitFrame& frame, int view_width, int view_height,
                                        int dot) {
    const auto w = static_cast<std::size_t>(view_width), h = static_cast<std::size_t>(view_height);
    image_pixels_.assign(w * h, 0u);
    image_depth_.assign(w * h, std::numeric_limits<float>::infinity());
    const std::vector<float>& agents = staging_[static_cast<std::size_t>(kind)];
    const double light_norm = std::sqrt(0.3 * 0.3 + 0.8 * 0.8 + 0.5 * 0.5);
    const Vec3 light{0.3 / light_norm, -0.8 / light_norm, -0.5 / light_norm};
    const double depth_span = std::max(frame.far_depth - frame.near_depth, 1e-4);
    const double bg[3] = {channel(background_rgb[0]), channel(background_rgb[1]), channel(background_rgb[2])};
    for (std::size_t i = 0; i + 5 < agents.size(); i += 6) {
        const std::optional<ScreenPoint> p = frame.project({agents[i], agents[i + 1], agents[i + 2]});
        if (!p || !(p->px >= 0 && p->py >= 0 && p->px < static_cast<double>(w - 1) &&
                    p->py < static_cast<double>(h - 1))) {
            continue; // behind the camera or outside the view
        }
        const double depth = p->depth;
        const std::size_t at = static_cast<std::size_t>(p->py) * w + static_cast<std::size_t>(p->px);
        if (static_cast<float>(depth) >= image_depth_[at]) {
            continue; // a nearer agent already holds the pixel
        }
        image_depth_[at] = static_cast<float>(depth);
        // As the 3D arrow shader: hue from the heading in the (x, z) plane, lit from above and in front,
        // fogged toward the background with distance.
        const Vec3 v{agents[i + 3], agents[i + 4], agents[i + 5]};
        const double speed = std::sqrt(v.dot(v));
        const double lit = 0.8 + 0.2 * (speed > 0 ? v.dot(light) / speed : light.x);
        const double far = std::clamp((depth - frame.near_depth) / depth_span, 0.0, 1.0);
        const std::uint32_t base = heading_colour(std::atan2(v.z, v.x));
        std::uint32_t colour = 0xff000000u;
        for (int c = 0; c < 3; ++c) {
            const double b = static_cast<double>((base >> (8 * c)) & 0xffu) / 255.0;
            const double mixed = b * lit + (bg[c] - b * lit) * 0.7 * far;
            colour |= static_cast<std::uint32_t>(std::lround(std::clamp(mixed, 0.0, 1.0) * 255.0)) << (8 * c);
        }
        image_pixels_[at] = colour;
        if (dot == 2) {
            image_pixels_[at + 1] = image_pixels_[at + w] = image_pixels_[at + w + 1] = colour;
        }
    }
    show_flock_image(view_width, view_height);
}

void FlockRenderer::show_flock_image(int view_width, int view_height) {
    glBindTexture(GL_TEXTURE_2D, image_texture_);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, view_width, view_height, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 image_pixels_.data());
    glUseProgram(image_program_);
    glUniform1i(glGetUniformLocation(image_program_, "image"), 0);
    glActiveTexture(GL_TEXTURE0);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glBindVertexArray(image_vao_);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glDisable(GL_BLEND);
}

void FlockRenderer::draw_shape(const std::vector<float>& points, unsigned mode, Rgba c) {
    if (points.empty()) {
        return;
    }
    glBindBuffer(GL_ARRAY_BUFFER, line_buffer_);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(points.size() * sizeof(float)), points.data(),
                 GL_STREAM_DRAW);
    glUniform4f(glGetUniformLocation(line_program_, "colour"), c.r, c.g, c.b, c.a);
    if (c.a < 1.0f) {
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    }
    glDrawArrays(mode, 0, static_cast<GLsizei>(points.size() / 2));
    glDisable(GL_BLEND);
}

void FlockRenderer::draw_obstacle(const Obstacle& o, Rgba fill, Rgba outline, double pixel) {
    if (o.shape == Obstacle::Shape::Circle) {
        const int n = segments(o.radius / pixel);
        draw_shape(disc(o.x, o.y, o.radius, n), GL_TRIANGLE_FAN, fill);
        draw_shape(ring(o.x, o.y, o.radius, n), GL_LINE_LOOP, outline);
    } else {
        const std::vector<float> corners = box(o.x0, o.y0, o.x1, o.y1);
        draw_shape(corners, GL_TRIANGLE_FAN, fill);
        draw_shape(corners, GL_LINE_LOOP, outline);
    }
}

void FlockRenderer::draw_scene_under(const Params& params, const SceneOverlay& overlay, double pixel) {
    const Rgba food{channel(food_rgb[0]), channel(food_rgb[1]), channel(food_rgb[2]), 1.0f};
    for (const FoodSource& f : params.food) {
        // The range, faintly: the boids inside it are pulled toward the source. A moving source's loop too.
        const auto [fx, fy] = f.position(overlay.step);
        const int n = segments(f.range / pixel);
        draw_shape(disc(fx, fy, f.range, n), GL_TRIANGLE_FAN, {food.r, food.g, food.b, 0.06f});
        draw_shape(ring(fx, fy, f.range, n), GL_LINE_LOOP, {food.r, food.g, food.b, 0.3f});
        if (f.path.size() >= 2) {
            draw_shape(dashed_loop(f.path, 6 * pixel), GL_LINES, {food.r, food.g, food.b, 0.4f});
        }
    }
    if (params.perch_rest_max > 0) {
        // The ledge as the engine resolves it: defaults are the bottom margin line between the side margins.
        const double y = params.ledge_y >= 0 ? params.ledge_y : params.height - params.margin_bottom;
        const double x0 = params.ledge_x0 >= 0 ? params.ledge_x0 : params.margin_left;
        const double x1 = params.ledge_x1 >= 0 ? params.ledge_x1 : params.width - params.margin_right;
        draw_shape(box(x0, y, x1, y + 4 * pixel), GL_TRIANGLE_FAN,
                   {channel(ledge_rgb[0]), channel(ledge_rgb[1]), channel(ledge_rgb[2]), 1.0f});
    }
    const Rgba stone{channel(obstacle_rgb[0]), channel(obstacle_rgb[1]), channel(obstacle_rgb[2]), 1.0f};
    const Rgba edge{0.68f, 0.63f, 0.58f, 1.0f};
    for (const Obstacle& o : params.obstacles) {
        draw_obstacle(o, stone, edge, pixel);
    }
}

void FlockRenderer::draw_scene_over(const Params& params, const SceneOverlay& overlay, double pixel) {
    // Markers keep a fixed size on screen, whatever the zoom.
    const Rgba outline{0.05f, 0.06f, 0.08f, 1.0f};
    for (const FoodSource& f : params.food) {
        const auto [fx, fy] = f.position(overlay.step);
        draw_shape(disc(fx, fy, 7 * pixel, 32), GL_TRIANGLE_FAN, outline);
        draw_shape(disc(fx, fy, 5.5 * pixel, 32), GL_TRIANGLE_FAN,
                   {channel(food_rgb[0]), channel(food_rgb[1]), channel(food_rgb[2]), 1.0f});
    }
    if (model_abilities(params.model).carrot) {
        const double cx = get_number(params, "carrot_x"), cy = get_number(params, "carrot_y");
        if (overlay.carrot_tracking) {
            draw_shape(ring(cx, cy, 12 * pixel, 40), GL_LINE_LOOP, {1.0f, 1.0f, 1.0f, 0.85f});
        }
        draw_shape(disc(cx, cy, 8 * pixel, 32), GL_TRIANGLE_FAN, outline);
        draw_shape(disc(cx, cy, 6.5 * pixel, 32), GL_TRIANGLE_FAN,
                   {channel(carrot_rgb[0]), channel(carrot_rgb[1]), channel(carrot_rgb[2]), 1.0f});
    }
    if (overlay.preview) { // half transparent, with a light outline
        draw_obstacle(*overlay.preview,
                      {channel(obstacle_rgb[0]), channel(obstacle_rgb[1]), channel(obstacle_rgb[2]), 0.45f},
                      {0.92f, 0.92f, 0.92f, 1.0f}, pixel);
    }
}

void FlockRenderer::draw(const Params& params, const ViewTransform& view, int view_width, int view_height,
                         int framebuffer_height, const SceneOverlay& overlay) {
    glViewport(0, framebuffer_height - view_height, view_width, view_height);
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, framebuffer_height - view_height, view_width, view_height);
    glClearColor(background_rgb[0] / 255.0f, background_rgb[1] / 255.0f, background_rgb[2] / 255.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);

    // Border, then margins (which only matter in margin mode).
    const auto w = static_cast<float>(params.width);
    const auto h = static_cast<float>(params.height);
    const auto l = static_cast<float>(params.margin_left);
    const auto r = static_cast<float>(params.width - params.margin_right);
    const auto t = static_cast<float>(params.margin_top);
    const auto b = static_cast<float>(params.height - params.margin_bottom);
    const float lines[] = {0, 0, w, 0, w, h, 0, h, l, t, r, t, r, b, l, b};
    glUseProgram(line_program_);
    set_view(line_program_, view, view_width, view_height);
    glBindVertexArray(line_vao_);
    glBindBuffer(GL_ARRAY_BUFFER, line_buffer_);
    glBufferData(GL_ARRAY_BUFFER, sizeof lines, lines, GL_STREAM_DRAW);
    glUniform4f(glGetUniformLocation(line_program_, "colour"), 0.55f, 0.58f, 0.65f, 1.0f);
    glDrawArrays(GL_LINE_LOOP, 0, 4);
    // Margins are drawn where they steer.
    if (params.boundary == Boundary::Margin && model_abilities(params.model).turns_at_margins) {
        glUniform4f(glGetUniformLocation(line_program_, "colour"), 0.25f, 0.27f, 0.33f, 1.0f);
        glDrawArrays(GL_LINE_LOOP, 4, 4);
    }
    const double pixel = 1.0 / view.scale; // one screen pixel in world units
    draw_scene_under(params, overlay, pixel);

    glUseProgram(arrow_program_);
    set_view(arrow_program_, view, view_width, view_height);
    const GLint size_loc = glGetUniformLocation(arrow_program_, "size_world");
    const GLint min_loc = glGetUniformLocation(arrow_program_, "min_pixels");
    const GLint heading_loc = glGetUniformLocation(arrow_program_, "by_heading");
    const GLint colour_loc = glGetUniformLocation(arrow_program_, "colour");
    // Arrow sizes are world units for worlds of VGA size and above; a smaller world (the lab's TFT, the
    // unit worlds of Vicsek, Couzin and Downey) shrinks them in proportion to its diagonal.
    const double world_fraction = std::min(1.0, std::hypot(params.width, params.height) / 800.0);
    const double visible = std::min(1.0, (view_width / view.scale) * (view_height / view.scale) /
                                             (params.width * params.height));
    for (int k = 0; k < kind_count; ++k) { // predators last, on top
        if (counts_[k] == 0) {
            continue;
        }
        const KindStyle& s = styles[k];
        glUniform1f(size_loc, static_cast<float>(s.size_world * world_fraction));
        glUniform1f(min_loc, s.min_pixels);
        glUniform1i(heading_loc, s.by_heading);
        glUniform3f(colour_loc, s.rgb[0], s.rgb[1], s.rgb[2]);
        // Agents in view: the flock's count in proportion to the part of the world in view (zoomed in on a
        // dense flock, arrows come back).
        const double pixels = static_cast<double>(view_width) * static_cast<double>(view_height);
        const double in_view = static_cast<double>(counts_[k]) * visible;
        if (s.by_heading && in_view * image_pixels_per_agent > pixels) {
            draw_flock_image(k, view, view_width, view_height,
                             in_view * big_dot_pixels_per_agent > pixels ? 1 : 2);
            glUseProgram(arrow_program_);
            continue;
        }
        upload_instances(k, false);
        glBindVertexArray(arrow_vaos_[k]);
        glDrawArraysInstanced(GL_TRIANGLES, 0, 3, static_cast<GLsizei>(counts_[k]));
    }

    glUseProgram(line_program_);
    glBindVertexArray(line_vao_);
    draw_scene_over(params, overlay, pixel);
    glBindVertexArray(0);
    glUseProgram(0);
}

void FlockRenderer::draw_lines_3d(const std::vector<float>& points, unsigned mode, Rgba c) {
    if (points.empty()) {
        return;
    }
    glBindBuffer(GL_ARRAY_BUFFER, line3d_buffer_);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(points.size() * sizeof(float)), points.data(),
                 GL_STREAM_DRAW);
    glUniform4f(glGetUniformLocation(line3d_program_, "colour"), c.r, c.g, c.b, c.a);
    if (c.a < 1.0f) {
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    }
    glDrawArrays(mode, 0, static_cast<GLsizei>(points.size() / 3));
    glDisable(GL_BLEND);
}

void FlockRenderer::draw_obstacle_3d(const Obstacle& o, const Params& params, Rgba colour) {
    if (o.shape == Obstacle::Shape::Circle) { // a sphere: three great circles and a few latitudes
        const Vec3 c{o.x, o.y, o.z.value_or(params.depth / 2)};
        const Vec3 ex{1, 0, 0}, ey{0, 1, 0}, ez{0, 0, 1};
        draw_lines_3d(circle_3d(c, o.radius, ex, ez, 48), GL_LINE_LOOP, colour);
        draw_lines_3d(circle_3d(c, o.radius, ex, ey, 48), GL_LINE_LOOP, colour);
        draw_lines_3d(circle_3d(c, o.radius, ey, ez, 48), GL_LINE_LOOP, colour);
        for (double lat : {-0.6, 0.6}) {
            draw_lines_3d(
                circle_3d(c + ey * (o.radius * lat), o.radius * std::sqrt(1 - lat * lat), ex, ez, 40),
                GL_LINE_LOOP, colour);
        }
        return;
    }
    // A box, or a column through the whole depth.
    draw_lines_3d(box_edges({o.x0, o.y0, o.z0.value_or(0.0)}, {o.x1, o.y1, o.z1.value_or(params.depth)}),
                  GL_LINES, colour);
}

void FlockRenderer::draw_3d(const Params& params, const OrbitFrame& frame, int view_width, int view_height,
                            int framebuffer_height, const SceneOverlay& overlay) {
    glViewport(0, framebuffer_height - view_height, view_width, view_height);
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, framebuffer_height - view_height, view_width, view_height);
    const float bg[3] = {channel(background_rgb[0]), channel(background_rgb[1]), channel(background_rgb[2])};
    glClearColor(bg[0], bg[1], bg[2], 1.0f);
    glClearDepth(1.0);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_BLEND);

    // The scene under the agents: box, margins, ledge, food ranges, obstacles (no depth writes).
    glDisable(GL_DEPTH_TEST);
    glUseProgram(line3d_program_);
    glUniformMatrix4fv(glGetUniformLocation(line3d_program_, "view_projection"), 1, GL_FALSE,
                       frame.view_projection.data());
    glBindVertexArray(line3d_vao_);
    // The floor (y = height: y grows downward) as a 10 x 10 grid, so that heights and depths read.
    std::vector<float> grid;
    for (int i = 0; i <= 10; ++i) {
        const auto fx = static_cast<float>(params.width * i / 10),
                   fz = static_cast<float>(params.depth * i / 10);
        const auto h = static_cast<float>(params.height), w = static_cast<float>(params.width),
                   d = static_cast<float>(params.depth);
        grid.insert(grid.end(), {fx, h, 0.0f, fx, h, d, 0.0f, h, fz, w, h, fz});
    }
    draw_lines_3d(grid, GL_LINES, {0.17f, 0.19f, 0.24f, 1.0f});
    draw_lines_3d(box_edges({0, 0, 0}, {params.width, params.height, params.depth}), GL_LINES,
                  {0.55f, 0.58f, 0.65f, 1.0f});
    if (params.boundary == Boundary::Margin && model_abilities(params.model).turns_at_margins) {
        draw_lines_3d(box_edges({params.margin_left, params.margin_top, params.margin_front},
                                {params.width - params.margin_right, params.height - params.margin_bottom,
                                 params.depth - params.margin_back}),
                      GL_LINES, {0.25f, 0.27f, 0.33f, 1.0f});
    }
    if (params.perch_rest_max > 0) { // the ledge: a strip through the whole depth
        const double y = params.ledge_y >= 0 ? params.ledge_y : params.height - params.margin_bottom;
        const double x0 = params.ledge_x0 >= 0 ? params.ledge_x0 : params.margin_left;
        const double x1 = params.ledge_x1 >= 0 ? params.ledge_x1 : params.width - params.margin_right;
        const std::vector<float> strip{
            static_cast<float>(x0), static_cast<float>(y), 0.0f,
            static_cast<float>(x1), static_cast<float>(y), 0.0f,
            static_cast<float>(x1), static_cast<float>(y), static_cast<float>(params.depth),
            static_cast<float>(x0), static_cast<float>(y), static_cast<float>(params.depth)};
        draw_lines_3d(strip, GL_TRIANGLE_FAN,
                      {channel(ledge_rgb[0]), channel(ledge_rgb[1]), channel(ledge_rgb[2]), 0.6f});
    }
    const Rgba food{channel(food_rgb[0]), channel(food_rgb[1]), channel(food_rgb[2]), 0.35f};
    for (const FoodSource& f : params.food) {
        const auto [fx, fy] = f.position(overlay.step);
        const Vec3 c{fx, fy, f.z.value_or(params.depth / 2)};
        draw_lines_3d(circle_3d(c, f.range, {1, 0, 0}, {0, 0, 1}, 64), GL_LINE_LOOP, food);
        draw_lines_3d(circle_3d(c, f.range, {1, 0, 0}, {0, 1, 0}, 64), GL_LINE_LOOP, food);
    }
    const Rgba stone{0.68f, 0.63f, 0.58f, 1.0f};
    for (const Obstacle& o : params.obstacles) {
        draw_obstacle_3d(o, params, stone);
    }
    if (overlay.preview) {
        draw_obstacle_3d(*overlay.preview, params, {0.92f, 0.92f, 0.92f, 1.0f});
    }

    // The agents, with a depth buffer so near arrows cover far ones. A kind too dense for arrows to read
    // (as in 2D: under 16 view pixels per agent) is one image of dots instead, under the other kinds' arrows.
    std::array<bool, kind_count> as_image{};
    if (uploaded_3d_) {
        const double pixels = static_cast<double>(view_width) * static_cast<double>(view_height);
        for (int k = 0; k < kind_count; ++k) {
            const double agents = static_cast<double>(counts_[k]);
            as_image[k] = styles[k].by_heading && agents * image_pixels_per_agent > pixels;
            if (as_image[k]) {
                draw_flock_image_3d(k, frame, view_width, view_height,
                                    agents * big_dot_pixels_per_agent > pixels ? 1 : 2);
            }
        }
    }
    if (uploaded_3d_) {
        glEnable(GL_DEPTH_TEST);
        glDepthFunc(GL_LESS);
        glUseProgram(arrow3d_program_);
        const unsigned prog = arrow3d_program_;
        glUniformMatrix4fv(glGetUniformLocation(prog, "view_projection"), 1, GL_FALSE,
                           frame.view_projection.data());
        glUniform2f(glGetUniformLocation(prog, "viewport"), static_cast<float>(view_width),
                    static_cast<float>(view_height));
        glUniform1f(glGetUniformLocation(prog, "focal"), static_cast<float>(frame.focal_px));
        glUniform3f(glGetUniformLocation(prog, "background"), bg[0], bg[1], bg[2]);
        glUniform2f(glGetUniformLocation(prog, "depth_range"), static_cast<float>(frame.near_depth),
                    static_cast<float>(frame.far_depth));
        // As in 2D: arrow sizes are world units for boxes of VGA size, scaled down with smaller worlds.
        const double diagonal = std::sqrt(params.width * params.width + params.height * params.height +
                                          params.depth * params.depth);
        const double world_fraction = std::min(1.0, diagonal / 800.0);
        // A small flock in a big box reads as dust: up to 3x larger arrows below 400 agents.
        long long agents = 0;
        for (int k = 0; k < kind_count; ++k) {
            agents += counts_[k];
        }
        const double few =
            std::clamp(std::cbrt(400.0 / static_cast<double>(std::max(1LL, agents))), 1.0, 3.0);
        glUniform3f(glGetUniformLocation(prog, "shadow_colour"), 0.2f, 0.22f, 0.27f);
        // Shadows first, on the floor (depth-tested so that the arrows above cover them), then the arrows.
        for (const float floor_y : {static_cast<float>(params.height), -1.0f}) {
            glUniform1f(glGetUniformLocation(prog, "floor_y"), floor_y);
            for (int k = 0; k < kind_count; ++k) {
                if (counts_[k] == 0 || as_image[k]) {
                    continue;
                }
                const KindStyle& st = styles[k];
                glUniform1f(glGetUniformLocation(prog, "size_world"),
                            static_cast<float>(1.5 * st.size_world * world_fraction * few));
                glUniform1f(glGetUniformLocation(prog, "min_pixels"), st.min_pixels);
                glUniform1i(glGetUniformLocation(prog, "by_heading"), st.by_heading);
                glUniform3f(glGetUniformLocation(prog, "colour"), st.rgb[0], st.rgb[1], st.rgb[2]);
                upload_instances(k, true);
                glBindVertexArray(arrow3d_vaos_[k]);
                glDrawArraysInstanced(GL_TRIANGLES, 0, 3, static_cast<GLsizei>(counts_[k]));
            }
        }
        glDisable(GL_DEPTH_TEST);
    }

    // Markers over everything, a fixed size on screen: drawn in pixels with the 2D line program.
    glUseProgram(line_program_);
    set_view(line_program_, ViewTransform{}, view_width, view_height);
    glBindVertexArray(line_vao_);
    const Rgba outline{0.05f, 0.06f, 0.08f, 1.0f};
    const auto marker = [&](Vec3 at, double radius, Rgba fill) {
        if (const auto p = frame.project(at)) {
            draw_shape(disc(p->px, p->py, radius + 1.5, 32), GL_TRIANGLE_FAN, outline);
            draw_shape(disc(p->px, p->py, radius, 32), GL_TRIANGLE_FAN, fill);
        }
    };
    for (const FoodSource& f : params.food) {
        const auto [fx, fy] = f.position(overlay.step);
        marker({fx, fy, f.z.value_or(params.depth / 2)}, 5.5,
               {channel(food_rgb[0]), channel(food_rgb[1]), channel(food_rgb[2]), 1.0f});
    }
    if (model_abilities(params.model).carrot) {
        const Vec3 carrot{get_number(params, "carrot_x"), get_number(params, "carrot_y"),
                          get_number(params, "carrot_z")};
        if (const auto p = frame.project(carrot); p && overlay.carrot_tracking) {
            draw_shape(ring(p->px, p->py, 12, 40), GL_LINE_LOOP, {1.0f, 1.0f, 1.0f, 0.85f});
        }
        marker(carrot, 6.5, {channel(carrot_rgb[0]), channel(carrot_rgb[1]), channel(carrot_rgb[2]), 1.0f});
    }
    glBindVertexArray(0);
    glUseProgram(0);
}

RgbImage read_framebuffer(int width, int height) {
    RgbImage image;
    image.width = width;
    image.height = height;
    std::vector<std::uint8_t> bottom_up(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) *
                                        3);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, bottom_up.data());
    image.rgb.resize(bottom_up.size());
    const std::size_t row = static_cast<std::size_t>(width) * 3;
    for (int y = 0; y < height; ++y) {
        std::copy_n(bottom_up.data() + static_cast<std::size_t>(height - 1 - y) * row, row,
                    image.rgb.data() + static_cast<std::size_t>(y) * row);
    }
    return image;
}

template void FlockRenderer::upload(const World<float>&);
template void FlockRenderer::upload(const World<double>&);
template void FlockRenderer::upload(const World<Fix15>&);

} // namespace boids::render
