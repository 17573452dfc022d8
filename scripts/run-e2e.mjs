// Runs the end-to-end suite (placeholder until the control-plane harness lands).
console.log('e2e: no end-to-end suite yet');
