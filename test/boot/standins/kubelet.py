#!/usr/bin/python3
# Stand-in for the kubelet in the boot tests (there is no kubelet binary here), installed by the profile from the
# test's mirror at its published checksum. `--version` prints Kubernetes v@VERSION@. Otherwise it checks:
# - every argument is --flag=value, a flag the profile's unit may pass, none twice, none empty (an unset
#   ${VARIABLE} in the unit expands to nothing), the required ones present;
# - --node-ip holds one or two IP addresses (one per family);
# - --config is a KubeletConfiguration (kubelet.config.k8s.io/v1beta1) that parses, with only known fields;
# - --bootstrap-kubeconfig is a kubeconfig with a server and a token; --cert-dir is a directory;
# - --container-runtime-endpoint is a listening containerd socket;
# - unless --cert-dir holds a client certificate (kubelet-client-current.pem, from an earlier start), the TLS
#   bootstrap: the bootstrap kubeconfig's token, presented to its server (verified with its CA) with a
#   CertificateSigningRequest, as the kubelet does; a refusal fails with the API server's reason.
# Then it writes /run/kubelet-standin/report.json (argv, the parsed config) and serves /healthz on 127.0.0.1:10248
# like the kubelet, staying up. A failed check exits 1 with the reason on stderr (journal of kubelet.service).
import base64, http.server, ipaddress, json, os, socket, ssl, stat, sys, urllib.error, urllib.request
import yaml

if sys.argv[1:] == ["--version"]:
    print("Kubernetes v@VERSION@")
    sys.exit(0)

def fail(message):
    print("kubelet stand-in: " + message, file=sys.stderr)
    sys.exit(1)

FLAGS = {"--bootstrap-kubeconfig", "--kubeconfig", "--config", "--cert-dir", "--cloud-provider", "--cloud-config",
         "--hostname-override", "--register-with-taints", "--node-ip", "--container-runtime-endpoint"}
REQUIRED = {"--bootstrap-kubeconfig", "--kubeconfig", "--config", "--cert-dir", "--container-runtime-endpoint"}
CONFIG_FIELDS = {"apiVersion", "kind", "authentication", "authorization", "cgroupDriver", "clusterDomain", "clusterDNS",
                 "containerLogMaxSize", "containerLogMaxFiles", "containerRuntimeEndpoint", "evictionHard", "featureGates",
                 "kubeReserved", "systemReserved", "maxPods", "protectKernelDefaults", "readOnlyPort", "rotateCertificates",
                 "serverTLSBootstrap", "staticPodPath", "tlsCipherSuites", "volumePluginDir", "imageGCHighThresholdPercent",
                 "imageGCLowThresholdPercent", "resolvConf", "seccompDefault", "shutdownGracePeriod",
                 "shutdownGracePeriodCriticalPods", "registerWithTaints", "providerID", "podPidsLimit", "cpuManagerPolicy",
                 "memorySwap", "failSwapOn", "kubeAPIQPS", "kubeAPIBurst", "serializeImagePulls", "maxParallelImagePulls",
                 "healthzBindAddress", "healthzPort", "enableDebuggingHandlers", "imageMinimumGCAge", "imageMaximumGCAge"}

flags = {}
for arg in sys.argv[1:]:
    name, eq, value = arg.partition("=")
    if not eq or name not in FLAGS:
        fail("unknown or malformed argument %r" % arg)
    if name in flags:
        fail("%s given twice" % name)
    if value == "":
        fail("%s is empty" % name)
    flags[name] = value
missing = REQUIRED - flags.keys()
if missing:
    fail("missing %s" % ", ".join(sorted(missing)))

if "--node-ip" in flags:
    ips = [ipaddress.ip_address(v) for v in flags["--node-ip"].split(",")]
    if len(ips) > 2 or len({ip.version for ip in ips}) != len(ips):
        fail("--node-ip %s is not one address per family" % flags["--node-ip"])

try:
    with open(flags["--config"]) as f:
        config = yaml.safe_load(f)
except Exception as e:
    fail("--config %s does not parse: %s" % (flags["--config"], e))
if not isinstance(config, dict) or config.get("apiVersion") != "kubelet.config.k8s.io/v1beta1" or config.get("kind") != "KubeletConfiguration":
    fail("--config %s is not a kubelet.config.k8s.io/v1beta1 KubeletConfiguration" % flags["--config"])
unknown = set(config) - CONFIG_FIELDS
if unknown:
    fail("--config has unknown fields %s" % ", ".join(sorted(unknown)))
for ip in config.get("clusterDNS", []):
    ipaddress.ip_address(ip)

try:
    with open(flags["--bootstrap-kubeconfig"]) as f:
        kubeconfig = yaml.safe_load(f)
    server = kubeconfig["clusters"][0]["cluster"]["server"]
    token = kubeconfig["users"][0]["user"]["token"]
    assert server.startswith("https://") and token
except Exception as e:
    fail("--bootstrap-kubeconfig is not a kubeconfig with a server and a token: %s" % e)
if not os.path.isdir(flags["--cert-dir"]):
    fail("--cert-dir %s is not a directory" % flags["--cert-dir"])

endpoint = flags["--container-runtime-endpoint"]
if not endpoint.startswith("unix://"):
    fail("--container-runtime-endpoint %s is not a unix socket" % endpoint)
s = socket.socket(socket.AF_UNIX)
try:
    s.connect(endpoint[len("unix://"):])
except OSError as e:
    fail("cannot connect to %s: %s" % (endpoint, e))
finally:
    s.close()

client_cert = os.path.join(flags["--cert-dir"], "kubelet-client-current.pem")
if not os.path.exists(client_cert):
    cluster = kubeconfig["clusters"][0]["cluster"]
    context = ssl.create_default_context(cadata=base64.b64decode(cluster["certificate-authority-data"]).decode())
    csr = json.dumps({"apiVersion": "certificates.k8s.io/v1", "kind": "CertificateSigningRequest",
                      "metadata": {"generateName": "node-csr-"},
                      "spec": {"signerName": "kubernetes.io/kube-apiserver-client-kubelet", "usages": ["client auth"], "request": ""}}).encode()
    request = urllib.request.Request(server.rstrip("/") + "/apis/certificates.k8s.io/v1/certificatesigningrequests", data=csr, method="POST",
                                     headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, context=context, timeout=30) as response:
            answer = json.load(response)
    except urllib.error.HTTPError as e:
        try:
            reason = json.load(e).get("message", "")
        except Exception:
            reason = ""
        fail("TLS bootstrap: the API server refused the bootstrap token (HTTP %d): %s" % (e.code, reason))
    except Exception as e:
        fail("TLS bootstrap: cannot reach the API server %s: %s" % (server, e))
    with open(client_cert, "w") as f:
        f.write("stand-in client certificate for %s\n" % answer["metadata"]["name"])

os.makedirs("/run/kubelet-standin", exist_ok=True)
with open("/run/kubelet-standin/report.json", "w") as f:
    json.dump({"argv": sys.argv[1:], "config": config, "pid": os.getpid()}, f)

class Healthz(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        ok = self.path == "/healthz"
        self.send_response(200 if ok else 404)
        self.end_headers()
        self.wfile.write(b"ok" if ok else b"")
    def log_message(self, *args):
        pass

print("kubelet stand-in: checks passed, serving /healthz", flush=True)
http.server.HTTPServer(("127.0.0.1", 10248), Healthz).serve_forever()
