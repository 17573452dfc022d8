// Command cluster-probe-kube-prober-oracle runs probes exactly as the kubelet runs a container's liveness probe, with
// the kubelet's own code: pkg/probe/http (New(false): followNonLocalRedirects off, as pkg/kubelet/prober's newProber),
// NewRequestForHTTPGetAction (URL, headers, User-Agent and Accept formed by Kubernetes), pkg/probe/tcp and
// pkg/probe/grpc. It is the oracle of test/oracle/prober.test.ts, which probes the same servers with our engine.
//
// pkg/kubelet/prober itself cannot be imported for this: its prober type and newProber are unexported and its probe()
// needs a Pod, a container runtime and an event recorder. So the three small pieces of it that decide the outcome are
// mirrored here, each naming the lines of k8s.io/kubernetes@v1.35.4/pkg/kubelet/prober it follows: runProbe's
// handler dispatch (prober.go 151-203), runProbeWithRetries (prober.go 138-149, maxProbeRetries = 3 at line 41: retried
// only while the handler returns an error) and probe()'s mapping of the result (prober.go 102-133: an error is
// "errored", which worker.go 349-352 throws away; Warning is a success whose output goes to an event).
//
// The kubelet's User-Agent is kube-probe/<major>.<minor> from k8s.io/component-base/version, stamped at build time by
// scripts/build-oracle.mjs through -ldflags -X, as Kubernetes' own build does.
//
// stdin: one JSON object a line, {"id":"...","probe":<v1.Probe>,"podIP":"127.0.0.1"}; the probes run concurrently.
// stdout: one JSON object a line per input, in the order they finish:
// {"id","result":"success|warning|failure|unknown","kubelet":"success|failure","errored":bool,"output","error","attempts"}.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/component-base/version"
	"k8s.io/kubernetes/pkg/probe"
	grpcprobe "k8s.io/kubernetes/pkg/probe/grpc"
	httpprobe "k8s.io/kubernetes/pkg/probe/http"
	tcpprobe "k8s.io/kubernetes/pkg/probe/tcp"
)

const versionLine = "cluster-probe-kube-prober-oracle (k8s.io/kubernetes pkg/probe/{http,tcp,grpc} as pkg/kubelet/prober runs them)"

// maxProbeRetries is pkg/kubelet/prober/prober.go line 41.
const maxProbeRetries = 3

type input struct {
	ID    string    `json:"id"`
	Probe *v1.Probe `json:"probe"`
	PodIP string    `json:"podIP"`
}

type output struct {
	ID string `json:"id"`
	// The pkg/probe result runProbeWithRetries returned: success, warning, failure or unknown.
	Result string `json:"result"`
	// What prober.probe() hands the worker: success (Success or Warning) or failure (the rest, errored included).
	Kubelet string `json:"kubelet"`
	// The handler returned an error on every attempt: the worker throws the result away (worker.go 349-352).
	Errored bool `json:"errored"`
	// The handler's output: the body on success, the warning or failure text, "" when errored.
	Output   string `json:"output"`
	Error    string `json:"error,omitempty"`
	Attempts int    `json:"attempts"`
	// The oracle's own fault (bad input), never a probe outcome.
	Fault string `json:"fault,omitempty"`
}

// The kubelet's probers, built once as newProber builds them (prober.go 56-69): followNonLocalRedirects = false.
var (
	httpProber = httpprobe.New(false)
	tcpProber  = tcpprobe.New()
	grpcProber = grpcprobe.New()
)

// runProbe mirrors prober.go 151-203 for the handlers a Cluster can have (exec has no counterpart). The container has
// no ports (named ports are resolved against them: a Cluster's are not), and status.PodIP is the case's podIP.
func runProbe(p *v1.Probe, podIP string) (probe.Result, string, error) {
	timeout := time.Duration(p.TimeoutSeconds) * time.Second
	container := v1.Container{Name: "probe-target"}
	switch {
	case p.HTTPGet != nil:
		req, err := httpprobe.NewRequestForHTTPGetAction(p.HTTPGet, &container, podIP, "probe")
		if err != nil {
			return probe.Unknown, "", err
		}
		return httpProber.Probe(req, timeout)
	case p.TCPSocket != nil:
		port, err := probe.ResolveContainerPort(p.TCPSocket.Port, &container)
		if err != nil {
			return probe.Unknown, "", err
		}
		host := p.TCPSocket.Host
		if host == "" {
			host = podIP
		}
		return tcpProber.Probe(host, port, timeout)
	case p.GRPC != nil:
		service := ""
		if p.GRPC.Service != nil {
			service = *p.GRPC.Service
		}
		return grpcProber.Probe(podIP, service, int(p.GRPC.Port), timeout)
	default:
		return probe.Unknown, "", fmt.Errorf("missing probe handler")
	}
}

// runProbeWithRetries mirrors prober.go 138-149: the last result if no attempt returns without an error.
func runProbeWithRetries(p *v1.Probe, podIP string, retries int) (probe.Result, string, error, int) {
	var err error
	var result probe.Result
	var out string
	attempts := 0
	for i := 0; i < retries; i++ {
		attempts++
		result, out, err = runProbe(p, podIP)
		if err == nil {
			return result, out, nil, attempts
		}
	}
	return result, out, err, attempts
}

func run(in input) output {
	o := output{ID: in.ID}
	if in.Probe == nil {
		o.Fault = "no probe"
		return o
	}
	result, out, err, attempts := runProbeWithRetries(in.Probe, in.PodIP, maxProbeRetries)
	o.Result, o.Output, o.Attempts = string(result), out, attempts
	// prober.go 102-133: an error makes the result Failure and is returned (errored); Success and Warning are
	// results.Success; Failure, Unknown and anything else are results.Failure.
	switch {
	case err != nil:
		o.Errored, o.Error, o.Kubelet = true, err.Error(), "failure"
	case result == probe.Success || result == probe.Warning:
		o.Kubelet = "success"
	default:
		o.Kubelet = "failure"
	}
	return o
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "--version" {
		v := version.Get()
		fmt.Printf("%s, User-Agent kube-probe/%s.%s\n", versionLine, v.Major, v.Minor)
		return
	}
	if v := version.Get(); v.Major == "" || v.Minor == "" {
		fmt.Fprintln(os.Stderr, "k8s.io/component-base/version is not stamped (build with scripts/build-oracle.mjs): the User-Agent would be wrong")
		os.Exit(2)
	}
	var mu sync.Mutex
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	emit := func(o output) {
		mu.Lock()
		defer mu.Unlock()
		if err := enc.Encode(o); err != nil {
			fmt.Fprintln(os.Stderr, "writing stdout:", err)
			os.Exit(1)
		}
	}
	var wg sync.WaitGroup
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 0, 64*1024), 4*1024*1024)
	for scanner.Scan() {
		line := scanner.Bytes()
		if len(line) == 0 {
			continue
		}
		var in input
		if err := json.Unmarshal(line, &in); err != nil {
			emit(output{Fault: fmt.Sprintf("invalid input line: %v", err)})
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			emit(run(in))
		}()
	}
	wg.Wait()
	if err := scanner.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "reading stdin:", err)
		os.Exit(1)
	}
}
