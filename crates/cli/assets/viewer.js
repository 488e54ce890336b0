// parapet replay viewer: draws the bodies of a scene with their shapes at
// the poses of a trajectory, with a timeline slider, play and pause.
// Sensors are translucent; each sensor event (data.marks) is a small
// marker where the body was when it entered (green), crossed (amber) or
// left (blue) the sensor, shown from its step on, and the sensor glows in
// the frames of its events.
// Inputs: the JSON in <script id="replay-data"> (see crates/cli/src/view.rs)
// and the global THREE (three.js, inlined before this script). World frame:
// z up, as parapet's.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const status = document.getElementById("status");
  const slider = document.getElementById("timeline");
  const label = document.getElementById("label");
  const play = document.getElementById("play");
  const frames = data.steps.length;
  const bodies = data.bodies.length;

  let renderer;
  try {
    renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  } catch (e) {
    status.textContent = "WebGL is not available in this browser: " + e;
    return;
  }
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  document.getElementById("view").appendChild(renderer.domElement);

  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0x1d2733);
  scene.add(new THREE.HemisphereLight(0xdde8ff, 0x40382c, 1.6));
  const sun = new THREE.DirectionalLight(0xffffff, 1.4);
  sun.position.set(0.4, -0.6, 1.0);
  scene.add(sun);

  function geometryOf(shape) {
    let g;
    if (shape.type === "sphere") {
      g = new THREE.SphereGeometry(shape.radius, 32, 16);
    } else if (shape.type === "capsule") {
      g = new THREE.CapsuleGeometry(shape.radius, 2 * shape.half_height, 8, 24);
      g.rotateX(Math.PI / 2); // three.js capsules lie along y; parapet's along z
    } else if (shape.type === "cuboid") {
      const h = shape.half_extents;
      g = new THREE.BoxGeometry(2 * h[0], 2 * h[1], 2 * h[2]);
    } else {
      g = new THREE.BufferGeometry();
      g.setAttribute("position", new THREE.Float32BufferAttribute(shape.vertices.flat(), 3));
      g.setIndex(shape.triangles.flat());
      g.computeVertexNormals();
    }
    return g;
  }

  const groups = [];
  const sensorMaterials = [];
  // Each body's material and its awake colour: a sleeping body is drawn
  // dimmed (a third of its colour's lightness, grey-shifted).
  const materials = [];
  const asleep = data.sleeping || [];
  data.bodies.forEach(function (body, i) {
    const isMesh = body.shape.type === "mesh";
    const color = body.sensor ? new THREE.Color(0x5fd3e8)
      : isMesh ? new THREE.Color(0x8a8f7a) : new THREE.Color().setHSL((i * 0.137) % 1, 0.65, 0.55);
    const material = new THREE.MeshStandardMaterial({
      color: color,
      flatShading: isMesh || body.shape.type === "convex_hull",
      side: isMesh || body.sensor ? THREE.DoubleSide : THREE.FrontSide,
      roughness: 0.8,
      // A sensor stops nothing: drawn see-through, never hiding what is
      // inside or behind it.
      transparent: body.sensor,
      opacity: body.sensor ? 0.25 : 1,
      depthWrite: !body.sensor,
    });
    sensorMaterials.push(body.sensor ? material : null);
    materials.push({ material: material, awake: color.clone() });
    const shape = new THREE.Mesh(geometryOf(body.shape), material);
    shape.position.fromArray(body.offset_position);
    const q = body.offset_rotation; // [w, x, y, z]
    shape.quaternion.set(q[1], q[2], q[3], q[0]);
    const group = new THREE.Group();
    group.add(shape);
    if (isMesh) {
      const edges = new THREE.LineSegments(
        new THREE.WireframeGeometry(shape.geometry),
        new THREE.LineBasicMaterial({ color: 0x2b2f26, transparent: true, opacity: 0.35 })
      );
      edges.position.copy(shape.position);
      edges.quaternion.copy(shape.quaternion);
      group.add(edges);
    }
    if (body.sensor) {
      const edges = new THREE.LineSegments(
        new THREE.EdgesGeometry(shape.geometry),
        new THREE.LineBasicMaterial({ color: 0x5fd3e8, transparent: true, opacity: 0.8 })
      );
      edges.position.copy(shape.position);
      edges.quaternion.copy(shape.quaternion);
      group.add(edges);
    }
    scene.add(group);
    groups.push(group);
  });

  // Sensor events: a marker at the body's origin interpolated between the
  // frame before the event's step and the frame after it, at the step
  // fraction (the straight path between two recorded poses).
  const markColors = { entered: 0x58d66a, crossed: 0xffb000, left: 0x5b8cff };
  const drawn = new THREE.Box3();
  groups.forEach(function (g) { drawn.expandByObject(g); });
  // Large enough to see at the scene's scale, even for a bullet.
  const least = drawn.isEmpty() ? 0.05 : drawn.getSize(new THREE.Vector3()).length() / 200;
  const marks = (data.marks || []).map(function (m) {
    const a = ((m.frame - 1) * bodies + m.body) * 7, b = (m.frame * bodies + m.body) * 7;
    const p = data.poses, f = m.fraction;
    const at = new THREE.Vector3(
      p[a] + (p[b] - p[a]) * f, p[a + 1] + (p[b + 1] - p[a + 1]) * f, p[a + 2] + (p[b + 2] - p[a + 2]) * f
    );
    const radius = Math.max(least, Math.min(0.5, 0.6 * data.bodies[m.body].size));
    const marker = new THREE.Mesh(
      new THREE.OctahedronGeometry(radius),
      new THREE.MeshBasicMaterial({ color: markColors[m.kind] || 0xffffff })
    );
    marker.position.copy(at);
    marker.visible = false;
    scene.add(marker);
    return { frame: m.frame, sensor: m.sensor, marker: marker };
  });

  // The camera looks at the centre of what moves in the shown frame (or of
  // everything, when nothing moves), from a distance that frames the
  // moving bodies of the first frame.
  function movingBox(f) {
    const box = new THREE.Box3();
    for (let b = 0; b < bodies; b++) {
      if (data.bodies[b].moving) {
        const o = (f * bodies + b) * 7;
        box.expandByPoint(new THREE.Vector3(data.poses[o], data.poses[o + 1], data.poses[o + 2]));
      }
    }
    return box;
  }
  let size = 0.1;
  data.bodies.forEach(function (body) { if (body.moving) size = Math.max(size, 4 * body.size); });
  const first = movingBox(0);
  const still = new THREE.Box3();
  groups.forEach(function (g) { still.expandByObject(g); });
  const extent = first.isEmpty() ? still.getSize(new THREE.Vector3()).length() : first.getSize(new THREE.Vector3()).length();
  let distance = Math.max(extent, size) * 2.2;
  let azimuth = -Math.PI / 3, elevation = 0.45;
  const target = new THREE.Vector3();
  const camera = new THREE.PerspectiveCamera(45, 1, distance / 1000, distance * 100);
  camera.up.set(0, 0, 1);

  function place() {
    const box = movingBox(frame);
    (box.isEmpty() ? still : box).getCenter(target);
    camera.position.set(
      target.x + distance * Math.cos(elevation) * Math.cos(azimuth),
      target.y + distance * Math.cos(elevation) * Math.sin(azimuth),
      target.z + distance * Math.sin(elevation)
    );
    camera.lookAt(target);
  }

  function resize() {
    const w = window.innerWidth, h = Math.max(100, window.innerHeight - 48);
    renderer.setSize(w, h);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
  }

  let frame = 0;
  function show(f) {
    frame = Math.max(0, Math.min(frames - 1, f));
    for (let b = 0; b < bodies; b++) {
      const o = (frame * bodies + b) * 7, p = data.poses;
      groups[b].position.set(p[o], p[o + 1], p[o + 2]);
      groups[b].quaternion.set(p[o + 4], p[o + 5], p[o + 6], p[o + 3]);
      const m = materials[b];
      if (asleep[frame * bodies + b]) {
        m.material.color.copy(m.awake).lerp(new THREE.Color(0x3a4350), 0.7);
      } else {
        m.material.color.copy(m.awake);
      }
    }
    const glowing = new Set();
    marks.forEach(function (m) {
      m.marker.visible = m.frame <= frame;
      if (m.frame === frame) glowing.add(m.sensor);
    });
    sensorMaterials.forEach(function (material, b) {
      if (material) material.opacity = glowing.has(b) ? 0.55 : 0.25;
    });
    slider.value = frame;
    label.textContent = "step " + data.steps[frame] + "  t = " + data.times[frame].toFixed(4) + " s";
    place();
    renderer.render(scene, camera);
  }

  let playing = false, last = 0, clock = 0;
  function tick(now) {
    if (!playing) return;
    clock += Math.min(0.1, (now - last) / 1000);
    last = now;
    const dt = data.dt > 0 ? data.dt : 1 / 60;
    let next = frame;
    while (clock >= dt) { clock -= dt; next += 1; }
    if (next >= frames) next = 0;
    if (next !== frame) show(next);
    requestAnimationFrame(tick);
  }
  function setPlaying(on) {
    playing = on && frames > 1;
    play.textContent = playing ? "Pause" : "Play";
    if (playing) { last = performance.now(); clock = 0; requestAnimationFrame(tick); }
  }

  slider.max = String(frames - 1);
  slider.addEventListener("input", function () { setPlaying(false); show(Number(slider.value)); });
  play.addEventListener("click", function () { setPlaying(!playing); });
  window.addEventListener("keydown", function (e) {
    if (e.key === " ") { setPlaying(!playing); e.preventDefault(); }
    if (e.key === "ArrowRight") { setPlaying(false); show(frame + 1); }
    if (e.key === "ArrowLeft") { setPlaying(false); show(frame - 1); }
  });
  let drag = null;
  renderer.domElement.addEventListener("pointerdown", function (e) { drag = [e.clientX, e.clientY]; });
  window.addEventListener("pointerup", function () { drag = null; });
  window.addEventListener("pointermove", function (e) {
    if (!drag) return;
    azimuth -= (e.clientX - drag[0]) * 0.01;
    elevation = Math.max(-1.5, Math.min(1.5, elevation + (e.clientY - drag[1]) * 0.01));
    drag = [e.clientX, e.clientY];
    show(frame);
  });
  renderer.domElement.addEventListener("wheel", function (e) {
    distance *= Math.exp(e.deltaY * 0.001);
    show(frame);
    e.preventDefault();
  }, { passive: false });
  window.addEventListener("resize", function () { resize(); show(frame); });

  resize();
  // `page.html#frame=N` opens at frame N (a link to a moment of the run).
  const asked = /frame=(\d+)/.exec(window.location.hash);
  show(asked ? Number(asked[1]) : 0);
  const sensors = sensorMaterials.filter(function (m) { return m; }).length;
  status.textContent = "drawn: frame " + (frame + 1) + " of " + frames + ", " + bodies + " bodies" +
    (sensors ? ", " + sensors + " sensors, " + marks.length + " sensor events marked" : "");
})();
