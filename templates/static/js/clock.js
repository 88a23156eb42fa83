// The round clock (templates/clock/_clock.html): counts down from the seconds the server
// said were left when it drew the clock, on this device's monotonic timer — never from
// the device's wall clock, so every screen shows the same time. A clock drawn again (a
// live part swapped in by a poll) is a new element and starts from its new figure.
(function () {
  "use strict";
  const deadlines = new WeakMap();

  function shown(seconds) {
    const left = Math.abs(seconds);
    const hours = Math.floor(left / 3600);
    const minutes = Math.floor((left % 3600) / 60);
    const secs = left % 60;
    const pad = function (n) { return String(n).padStart(2, "0"); };
    const text = hours ? hours + ":" + pad(minutes) + ":" + pad(secs) : minutes + ":" + pad(secs);
    return seconds < 0 ? "-" + text : text;
  }

  function tick() {
    const now = performance.now();
    for (const clock of document.querySelectorAll("[data-clock-remaining]")) {
      if (!deadlines.has(clock)) {
        deadlines.set(clock, now + Number(clock.dataset.clockRemaining) * 1000);
      }
      if (clock.dataset.clockTicking !== "true") continue;
      const seconds = Math.floor((deadlines.get(clock) - now) / 1000);
      const left = clock.querySelector(".clock-left");
      if (left && left.textContent !== shown(seconds)) left.textContent = shown(seconds);
      const over = seconds < 0;
      clock.classList.toggle("clock-over", over);
      clock.classList.toggle("clock-running", !over);
      const running = clock.querySelector("span.clock-running");
      const ended = clock.querySelector("span.clock-over");
      if (running) running.hidden = over;
      if (ended) ended.hidden = !over;
    }
  }

  document.addEventListener("DOMContentLoaded", tick);
  setInterval(tick, 250);
})();
