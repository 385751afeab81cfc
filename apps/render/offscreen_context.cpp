#include "offscreen_context.hpp"

#include "flock_renderer.hpp"

#include <epoxy/egl.h>
#include <epoxy/gl.h>

#include <stdexcept>
#include <string>

namespace boids::render {

namespace {

[[noreturn]] void fail(const std::string& what) {
    throw std::runtime_error("offscreen OpenGL through EGL: " + what + " (EGL error 0x" + [] {
        char hex[16];
        std::snprintf(hex, sizeof hex, "%x", static_cast<unsigned>(eglGetError()));
        return std::string(hex);
    }() + ")");
}

/// Mesa's surfaceless platform needs no display server at all; fall back to the default display.
EGLDisplay open_display() {
    if (epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_MESA_platform_surfaceless")) {
        EGLDisplay d = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
        if (d != EGL_NO_DISPLAY && eglInitialize(d, nullptr, nullptr)) {
            return d;
        }
    }
    EGLDisplay d = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    if (d == EGL_NO_DISPLAY || !eglInitialize(d, nullptr, nullptr)) {
        fail("no EGL display could be initialised (is Mesa's libegl-mesa0 installed?)");
    }
    return d;
}

} // namespace

OffscreenContext::OffscreenContext(int width, int height) : width_(width), height_(height) {
    EGLDisplay display = open_display();
    display_ = display;
    if (!eglBindAPI(EGL_OPENGL_API)) {
        fail("desktop OpenGL is not offered");
    }
    // The default surface type is "window", which the surfaceless platform has none of.
    const EGLint config_attributes[] = {EGL_SURFACE_TYPE,
                                        EGL_PBUFFER_BIT,
                                        EGL_RENDERABLE_TYPE,
                                        EGL_OPENGL_BIT,
                                        EGL_RED_SIZE,
                                        8,
                                        EGL_GREEN_SIZE,
                                        8,
                                        EGL_BLUE_SIZE,
                                        8,
                                        EGL_NONE};
    EGLConfig config = nullptr;
    EGLint found = 0;
    if (!eglChooseConfig(display, config_attributes, &config, 1, &found) || found < 1) {
        fail("no OpenGL-capable configuration");
    }
    const EGLint context_attributes[] = {EGL_CONTEXT_MAJOR_VERSION,
                                         3,
                                         EGL_CONTEXT_MINOR_VERSION,
                                         3,
                                         EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                         EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                         EGL_NONE};
    EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attributes);
    if (context == EGL_NO_CONTEXT) {
        fail("cannot create an OpenGL 3.3 core context");
    }
    context_ = context;
    // Surfaceless: all drawing goes to the framebuffer object below.
    if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
        fail("cannot make the context current without a surface (EGL_KHR_surfaceless_context)");
    }
    glGenFramebuffers(1, &framebuffer_);
    glGenRenderbuffers(1, &colour_buffer_);
    glBindRenderbuffer(GL_RENDERBUFFER, colour_buffer_);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour_buffer_);
    glGenRenderbuffers(1, &depth_buffer_); // 3D views draw near agents over far ones
    glBindRenderbuffer(GL_RENDERBUFFER, depth_buffer_);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, width, height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth_buffer_);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        throw std::runtime_error("offscreen OpenGL: the " + std::to_string(width) + "x" +
                                 std::to_string(height) + " framebuffer is incomplete");
    }
}

OffscreenContext::~OffscreenContext() {
    glDeleteFramebuffers(1, &framebuffer_);
    glDeleteRenderbuffers(1, &colour_buffer_);
    glDeleteRenderbuffers(1, &depth_buffer_);
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(display_, context_);
    eglTerminate(display_);
}

RgbImage OffscreenContext::read() const {
    glFinish();
    return read_framebuffer(width_, height_);
}

} // namespace boids::render
