#!/usr/bin/env python3
"""Generates the hostile-input corpus in this directory (make test-hostile
replays it). Each file is under 1 MiB unless its name says over-limit.
Run: cd testdata/hostile && python3 gen.py"""
import base64, json, random, string, zlib

def w(name, data):
    if isinstance(data, str):
        data = data.encode()
    open(name, 'wb').write(data)

def b36(i):
    d = string.digits + string.ascii_lowercase; s = ''
    while True:
        s = d[i % 36] + s; i //= 36
        if i == 0: return s

def machine(nodes, cores, threads):
    return {"nodes": nodes, "sockets_per_node": 1, "llcs_per_socket": 1, "clusters_per_llc": 1,
            "cores_per_cluster": cores, "threads_per_core": threads, "hz": 1000}

def scn(tasks, title="hostile", dur="1s", m=None, **kw):
    s = {"version": 1, "title": title, "seed": 1, "duration": dur, "machine": m or machine(1, 2, 1),
         "policy": {"base": "v6.17"}, "tasks": tasks}
    s.update(kw)
    return json.dumps(s)

run = [{"run": "1ms"}, {"sleep": "1ms"}]
# ---- scenario files (schedsim validate, the page's loadScenario) ----
w('scn-deep-nesting.json', '{"version":1,"x":' + '[' * 100000 + ']' * 100000 + '}')
w('scn-over-limit.json', scn([{"name": "a", "program": run}], description="x" * (300 << 10)))
w('scn-dup-keys.json', '{' + ','.join(['"title":"t"'] * 25000) + ',"version":1,"duration":"1s","tasks":[{"name":"a","program":[{"run":"1ms"}]}]}')
w('scn-huge-numbers.json', '{"version":1,"seed":1e999999,"duration":"1s","machine":{"cores_per_cluster":99999999999999999999999},"tasks":[{"name":"a","count":-1e308,"program":[{"run":"99999999999999999999h"}]}]}')
w('scn-max-everything.json', scn([{"name": "g%d" % i, "count": 64, "program": [{"run": "1us"}, {"wake": "g%d" % ((i + 1) % 64), "fanout": "all"}, {"wait": True}] + [{"run": "1us"}] * 61}
                                   for i in range(64)], dur="600s", m=machine(2, 64, 2)))
w('scn-too-many-groups.json', scn([{"name": "g%d" % i, "program": run} for i in range(5000)]))
w('scn-long-description.json', scn([{"name": "a", "program": run}], description="y" * 200000))
w('scn-bidi-title.json', scn([{"name": "a", "program": run}], title="invoice\u202efdp.exe"))
w('scn-control-title.json', scn([{"name": "a", "program": run}], title="a\u001b[2Jb"))
w('scn-proto.json', '{"__proto__":{"polluted":1},"constructor":{"prototype":{}},"version":1,"duration":"1s","tasks":[]}')
w('scn-invalid-utf8.json', b'{"version":1,"title":"\xff\xfe","duration":"1s","tasks":[]}')
w('scn-nul-bytes.json', b'\xef\xbb\xbf{"version":1,"title":"a\x00b","duration":"1s","tasks":[]}\x00\x00')
w('scn-many-cpus-list.json', scn([{"name": "a", "cpus": ",".join(str(i) for i in range(0, 256)) * 40, "program": run}], m=machine(2, 64, 2)))
w('scn-steps-overflow.json', scn([{"name": "a", "program": [{"run": "1us"}] * 50000}]))
w('scn-empty.json', '')
w('scn-whitespace.json', ' ' * (200 << 10))
# the long runs of issue 18 (schedsim run with a small -max-work: exit 3)
w('run-fanout-4096.json', scn([{"name": "w", "count": 4096, "program": [{"run": "10us"}, {"wake": "w", "fanout": "all"}, {"wait": True}]}],
                             title="4096 tasks waking all, 256 CPUs, 600 s", dur="600s", m=machine(2, 64, 2)))
tb = json.load(open('../../scenarios/tbench-pairs.json'))
tb["title"] = "tbench 2048 pairs on 256 CPUs, 600 s"; tb["description"] = ""
tb["duration"] = "600s"; tb["machine"]["nodes"] = 2; tb["machine"]["cores_per_cluster"] = 64
tb["tasks"][0]["count"] = 2048
w('run-tbench-2048.json', json.dumps(tb))
w('run-1ns-loop.json', scn([{"name": "a", "program": [{"run": "1ns"}, {"sleep": "1ns"}]}], title="1 ns loop, 600 s", dur="600s", m=machine(1, 1, 1)))
w('run-4096-on-1cpu.json', scn([{"name": "a", "count": 4096, "program": [{"run": "1us"}, {"sleep": "1ns"}]}], title="4096 tasks on one CPU, 600 s", dur="600s", m=machine(1, 1, 1)))
# ---- lscpu -p (schedsim import -from lscpu, the page's import) ----
w('lscpu-id-2e30.txt', '# CPU,Core,Socket,Node\n1073741823,0,0,0\n')
w('lscpu-id-1e8.txt', '# CPU,Core,Socket,Node\n100000000,0,0,0\n')
w('lscpu-max-id.txt', '# CPU,Core,Socket,Node\n8191,0,0,0\n')
w('lscpu-sparse-1024.txt', '# CPU,Core,Socket,Node\n' + ''.join('%d,%d,0,0\n' % (i * 8, i) for i in range(1024)))
w('lscpu-1025-rows.txt', '# CPU,Core,Socket,Node\n' + ''.join('%d,%d,0,0\n' % (i, i) for i in range(1025)))
w('lscpu-long-line.txt', '# CPU,Core,Socket,Node\n' + '0,' * 500000 + '\n')
w('lscpu-wide-header.txt', '# CPU,Core,' + ','.join('L%d' % (i % 9 + 1) for i in range(200000)) + '\n0,0\n')
w('lscpu-comments.txt', '#\n' * 500000)
w('lscpu-over-limit.txt', '# CPU,Core,Socket,Node\n' + '0,0,0,0\n' * 131073)
w('lscpu-huge-ids.txt', '# CPU,Core,Socket,Node,,L1d,L1i,L2,L3\n' + ''.join('%d,1073741823,1073741822,1073741821,,9,9,99999999,1073741823\n' % i for i in range(256)))
w('lscpu-colons.txt', '# CPU,Core,Socket,Node,L1d:L1i:L2:L3\n' + ''.join('%d,%d,0,0,%s\n' % (i, i, ':'.join(['0'] * 20000)) for i in range(4)))
# ---- rt-app JSON (schedsim import -from rtapp, the page's import) ----
w('rtapp-dup-run-120k.json', '{"tasks":{"t":{' + ",".join(['"run":1'] * 120000) + '}}}\n')
w('rtapp-phases-60k.json', '{"tasks":{"t":{"loop":1,"phases":{' + ",".join('"%s":{"run":1}' % b36(i) for i in range(60000)) + '}}}}\n')
w('rtapp-deep-nesting.json', '{"tasks":' + '{"a":' * 50000 + '1' + '}' * 50000 + '}')
w('rtapp-many-tasks.json', '{"tasks":{' + ",".join('"%s":{"run":1,"resume":"%s"}' % (b36(i), b36((i + 1) % 30000)) for i in range(30000)) + '}}')
w('rtapp-resume-storm.json', '{"tasks":{' + ",".join('"t%d":{"instance":64,"phases":{' % i + ",".join('"p%d":{"run":1,"resume":"t%d","suspend":"t%d"}' % (j, (i + j) % 64, i) for j in range(150)) + '}}' for i in range(64)) + '}}')
w('rtapp-comments.json', '/*' + 'x' * 900000 + '*/ {"tasks":{"t":{"run":1}}} // ' + 'y' * 50000 + '\n')
w('rtapp-unterminated-comment.json', '{"tasks": /*' + '*' * 900000)
w('rtapp-huge-numbers.json', '{"tasks":{"t":{"instance":1e999,"run":99999999999999999999999,"loop":-99999999999999999999,"timer":{"period":1e-999},"delay":1e308}}}')
w('rtapp-many-problems.json', '{"tasks":{"t":{"run":1,' + ",".join('"x%d":1' % i for i in range(60000)) + '}}}')
w('rtapp-trailing-commas.json', '{"tasks":{"t":{"run":1,' + ',' * 900000 + '}}}')
w('rtapp-long-keys.json', '{"tasks":{"' + 'k' * 900000 + '":{"run":1}}}')
# ---- share links (the page's #s=... fragment) ----
def link(raw):
    return '#s=' + base64.urlsafe_b64encode(raw).decode().rstrip('=')
def deflate(b):
    c = zlib.compressobj(9, zlib.DEFLATED, -15); return c.compress(b) + c.flush()
w('link-deflate-bomb.txt', link(deflate(b'{"version":1,"title":"' + b'A' * (30 << 20) + b'"}')))
w('link-over-limit.txt', link(deflate(random.Random(1).randbytes(60000))))
w('link-garbage.txt', '#s=' + '!@$%^&*()' * 1000)
w('link-not-deflate.txt', link(b'\xff' * 40000))
w('link-nested-json.txt', link(deflate(b'{"version":1,"x":' + b'[' * 100000 + b']' * 100000 + b'}')))
small = deflate(json.dumps({"version": 1, "duration": "1s", "tasks": [{"name": "a", "program": [{"run": "1ms"}]}]}).encode())
view = lambda raw: base64.urlsafe_b64encode(raw).decode().rstrip('=')
w('link-view-bomb.txt', link(small) + '&v=' + view(deflate(b'{"speed":' + b' ' * (30 << 20) + b'1}')))
w('link-view-garbage.txt', link(small) + '&v=' + '%00' * 10000 + '&v=' + 'A' * 30000)
# ---- ftrace text (schedsim import -from ftrace) ----
sw = lambda t, a, b, cpu: '  t%d-%d [%03d] d..2. %d.%06d: sched_switch: prev_comm=t%d prev_pid=%d prev_prio=120 prev_state=S ==> next_comm=t%d next_pid=%d next_prio=120\n' % (a, a, cpu, t // 1000000, t % 1000000, a, a, b, b)
w('ftrace-many-pids.txt', ''.join(sw(i, i % 20000 + 1, (i + 7) % 20000 + 1, i % 256) for i in range(5000)))
w('ftrace-same-line.txt', sw(1, 1, 2, 0) * 5000)
w('ftrace-long-line.txt', '  a-1 [000] d..2. 1.000001: sched_switch: prev_comm=' + 'x' * 900000 + ' prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=b next_pid=2 next_prio=120\n')
w('ftrace-huge-numbers.txt', ''.join('  a-%d [%d] d..2. %d.%d: sched_wakeup: comm=b pid=%d prio=%d target_cpu=%d\n' % (10**18, 10**9, 10**15, 10**12, 2**63, 10**9, 2**40) for _ in range(2000)))
w('ftrace-backwards-time.txt', ''.join(sw(10**9 - i * 1000, 1 + i % 2, 2 - i % 2, 0) for i in range(5000)))
w('ftrace-garbage.txt', ''.join('%s\n' % ('#' * (i % 50) + ' ] [ : : sched_switch ==> ' * (i % 7)) for i in range(9000)))
w('ftrace-100-tasks.txt', ''.join(sw(1000000 + i * 200, i % 100 + 1, (i + 1) % 100 + 1, i % 64) for i in range(6000)))
