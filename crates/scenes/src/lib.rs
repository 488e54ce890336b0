//! parapet-scenes: the scenes shared by the tests, the benchmarks and the demo
//! (after Box2D's `shared/benchmarks.c`): one definition of each scene, so a
//! figure in a report and an assertion in a test speak of the same world.
