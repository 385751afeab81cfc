// Saving the scene on screen and opening it again: the reopened scene flies as the scene it was saved from
// does after a reset from the same seed.

#include "apply_requests.hpp"
#include "scene_file.hpp"
#include "viewing.hpp"

#include "boids/obstacle.hpp"
#include "boids/scenario.hpp"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

using namespace boids;
using namespace boids::viewer;
using boids::viewer::testing::Viewing;

namespace {

std::filesystem::path temp_file(const std::string& name) {
    const auto dir = std::filesystem::temp_directory_path() / "boids_scene_file_test";
    std::filesystem::create_directories(dir);
    return dir / name;
}

} // namespace

TEST(SceneFile, ASavedSceneReopenedFliesAsTheSessionDoesAfterAReset) {
    Scenario start = load_preset("obstacles");
    start.agents = {300, 5, 5, 2};
    start.seed = 99;
    Viewing v(start);
    // What a user does on screen: sliders, a drawn obstacle, more boids, some flying.
    v.state.params.visual_range = 55;
    v.state.params.obstacles.push_back(parse_obstacle("circle 400 300 30"));
    v.state.counts.boids = 350;
    v.frame();
    v.session.step(20);
    v.frame();
    v.state.scene_file = temp_file("edited.toml").string();
    v.state.save_scene = true;
    SceneView camera;
    camera.zoom = 1.75;
    camera.center_x = 300;
    camera.center_y = 250;
    handle_scene_requests(v.state, v.session, camera, [](const SceneView&) { FAIL() << "nothing opened"; });
    EXPECT_EQ(v.state.scene_message, "saved " + v.state.scene_file);
    EXPECT_TRUE(v.state.last_error.empty()) << v.state.last_error;

    // The session, reset from its seed, against the file opened in another viewer.
    v.state.reset = true;
    v.frame();
    v.session.step(150);
    Viewing w(load_preset("vicsek"));
    w.state.scene_file = v.state.scene_file;
    w.state.open_scene = true;
    SceneView shown;
    handle_scene_requests(w.state, w.session, {}, [&](const SceneView& view) { shown = view; });
    w.frame();
    EXPECT_EQ(w.state.scene_message, "opened " + w.state.scene_file);
    EXPECT_EQ(shown, camera);
    EXPECT_EQ(w.state.params, v.state.params);
    EXPECT_EQ(w.state.counts, v.state.counts);
    EXPECT_EQ(w.state.seed, 99u);
    w.session.step(150);
    EXPECT_EQ(w.session.state_hash(), v.session.state_hash());
}

TEST(SceneFile, AFileThatCannotBeOpenedChangesNothingAndSaysWhy) {
    Viewing v(load_preset("vga-scouts"));
    v.session.step(5);
    const std::uint64_t before = v.session.state_hash();
    const auto bad = temp_file("bad.toml");
    std::ofstream(bad) << "[params]\nvisual_range = -3\n";
    v.state.scene_file = bad.string();
    v.state.open_scene = true;
    handle_scene_requests(v.state, v.session, {}, [](const SceneView&) { FAIL() << "nothing opened"; });
    EXPECT_NE(v.state.last_error.find("visual_range"), std::string::npos) << v.state.last_error;
    EXPECT_EQ(v.session.state_hash(), before);

    v.state.last_error.clear();
    v.state.scene_file = (temp_file("no_such_dir") / "x" / "scene.toml").string();
    v.state.save_scene = true;
    handle_scene_requests(v.state, v.session, {}, [](const SceneView&) {});
    EXPECT_FALSE(v.state.last_error.empty());
    EXPECT_TRUE(v.state.scene_message.empty());
}
