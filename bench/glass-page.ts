/**
 * What runs inside Chromium for the glass-to-glass figure, as source text (bench code is typed
 * without the DOM library): open a WebRTC video either straight from the simulator (webrtcsink
 * signalling, as the cockpit's own client speaks it) or through the cockpit's relay (/ws
 * signalling, as the dashboard speaks it), then read the frame counter strip the simulator
 * draws (server/sim/camera-scene.ts: 24 cells of 16 px, clock ms modulo 2^24, white = 1) from
 * every displayed frame, and compare it with this page's clock at the frame's display time. The
 * first `warmup` seconds after the first frame are not counted: the start of a session (the
 * simulator's encoder restarting for the browser's first keyframe requests, the jitter buffer
 * settling) is not the steady latency the figure is about.
 */

/** `(options) => Promise<number[]>`: glass-to-glass samples in ms. */
export const GLASS_TO_GLASS_SCRIPT = String.raw`async ({ mode, url, token, warmup, seconds, bits, cell }) => {
  const pc = new RTCPeerConnection({ iceServers: [] });
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  document.body.append(video);
  pc.ontrack = (e) => { video.srcObject = e.streams[0] || new MediaStream([e.track]); video.play().catch(() => {}); };
  const answer = async (sdp) => {
    await pc.setRemoteDescription({ type: 'offer', sdp });
    // Picture only, as the cockpit's own session and the relay carry it: with the simulator's
    // sound taken too, Chromium held every picture back to play it in sync with the sound.
    for (const t of pc.getTransceivers()) if (t.receiver.track.kind === 'audio') t.stop();
    const a = await pc.createAnswer();
    await pc.setLocalDescription(a);
    return a.sdp;
  };
  let ws;
  if (mode === 'direct') {
    ws = new WebSocket(url);
    let sessionId = null;
    pc.onicecandidate = (e) => {
      if (e.candidate && e.candidate.candidate && sessionId) ws.send(JSON.stringify({ type: 'peer', sessionId, ice: { candidate: e.candidate.candidate, sdpMLineIndex: e.candidate.sdpMLineIndex || 0 } }));
    };
    ws.onmessage = async (ev) => {
      const m = JSON.parse(ev.data);
      if (m.type === 'welcome') { ws.send(JSON.stringify({ type: 'setPeerStatus', roles: ['listener'], meta: { name: 'bench' } })); ws.send(JSON.stringify({ type: 'list' })); }
      else if (m.type === 'list' && m.producers.length > 0 && !sessionId) ws.send(JSON.stringify({ type: 'startSession', peerId: m.producers[0].id }));
      else if (m.type === 'sessionStarted') sessionId = m.sessionId;
      else if (m.type === 'peer' && m.sdp && m.sdp.type === 'offer') ws.send(JSON.stringify({ type: 'peer', sessionId, sdp: { type: 'answer', sdp: await answer(m.sdp.sdp) } }));
      else if (m.type === 'peer' && m.ice && m.ice.candidate) await pc.addIceCandidate({ candidate: m.ice.candidate, sdpMLineIndex: m.ice.sdpMLineIndex || 0 });
    };
  } else {
    ws = new WebSocket(url.replace('http', 'ws') + '/ws?token=' + encodeURIComponent(token));
    let id = null;
    pc.onicecandidate = (e) => {
      if (e.candidate && e.candidate.candidate && id !== null) ws.send(JSON.stringify({ type: 'video', action: 'candidate', id, candidate: e.candidate.candidate, sdpMid: e.candidate.sdpMid, sdpMLineIndex: e.candidate.sdpMLineIndex }));
    };
    ws.onopen = () => ws.send(JSON.stringify({ type: 'video', action: 'start' }));
    ws.onmessage = async (ev) => {
      if (typeof ev.data !== 'string') return;
      const m = JSON.parse(ev.data);
      if (m.type === 'video' && m.action === 'offer') { id = m.id; ws.send(JSON.stringify({ type: 'video', action: 'answer', id, sdp: await answer(m.sdp) })); }
    };
  }
  const canvas = document.createElement('canvas');
  canvas.width = bits * cell;
  canvas.height = cell;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  const modulo = 2 ** bits;
  const samples = [];
  let from = Infinity;
  let until = Infinity;
  await new Promise((resolve, reject) => {
    const timeout = setTimeout(() => reject(new Error('no video within 30 s (' + mode + ')')), 30000);
    const onFrame = (_now, meta) => {
      if (until === Infinity) { clearTimeout(timeout); from = performance.now() + warmup * 1000; until = from + seconds * 1000; }
      ctx.drawImage(video, 0, 0, canvas.width, canvas.height, 0, 0, canvas.width, canvas.height);
      const px = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
      let value = 0;
      for (let i = 0; i < bits; i += 1) {
        const at = ((cell >> 1) * canvas.width + i * cell + (cell >> 1)) * 4;
        value = value * 2 + (px[at] > 128 ? 1 : 0);
      }
      const shownAt = performance.timeOrigin + (meta.expectedDisplayTime || performance.now());
      const ms = (((Math.floor(shownAt) - value) % modulo) + modulo) % modulo;
      if (ms < 5000 && performance.now() >= from) samples.push(ms);
      if (performance.now() < until) video.requestVideoFrameCallback(onFrame);
      else resolve();
    };
    video.requestVideoFrameCallback(onFrame);
  });
  pc.close();
  ws.close();
  video.remove();
  return samples;
}`;
