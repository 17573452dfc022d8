// Command cluster-probe-kube-oracle judges the liveness probe of each Cluster with Kubernetes' own Pod validation, as
// kube-apiserver does on create: the probe is put into a Pod's only container, the v1 Pod is decoded with the
// legacy scheme (v1 defaults applied, then conversion to the internal type) and checked by ValidatePodCreate with the
// options the Pod strategy uses. Errors under spec.containers[0].livenessProbe are reported under
// spec.livenessProbe; anything else means the carrier Pod itself is wrong, which is this program's bug (exit 3).
//
// The probe is converted as a Pod would hold it: apiServer, a handler Kubernetes lacks, stands in as an exec handler
// (errors at .exec are mapped back); caBundle and insecureSkipTLSVerify, which Kubernetes lacks, are dropped by
// decoding, as are grpc.host and any unknown field.
//
// stdin: {"cases":[{"name":"...","object":{...}}]}; stdout: [{"name","errors":[...],"failure","skipped"}]
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	podutil "k8s.io/kubernetes/pkg/api/pod"
	api "k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"
)

const (
	version      = "cluster-probe-kube-oracle (k8s.io/kubernetes pkg/apis/core/validation ValidatePodCreate)"
	carrierProbe = "spec.containers[0].livenessProbe"
	ourProbe     = "spec.livenessProbe"
	// The stand-in for the apiServer handler; the command is never run.
	apiServerStandIn = `{"command":["cluster-probe-apiserver-handler"]}`
)

type input struct {
	Cases []struct {
		Name   string          `json:"name"`
		Object json.RawMessage `json:"object"`
	} `json:"cases"`
}

type fieldError struct {
	Field   string `json:"field"`
	Type    string `json:"type"`
	Detail  string `json:"detail"`
	Message string `json:"message"`
}

type verdict struct {
	Name    string       `json:"name"`
	Errors  []fieldError `json:"errors"`
	Failure string       `json:"failure,omitempty"`
	Skipped bool         `json:"skipped,omitempty"`
}

// carrierPod is a Pod that is valid with any valid probe: one container, everything else defaulted.
func carrierPod(probe json.RawMessage) []byte {
	return []byte(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"probe-carrier","namespace":"default"},` +
		`"spec":{"containers":[{"name":"probe","image":"registry.example.com/probe:1","livenessProbe":` +
		string(probe) + `}]}}`)
}

func judge(raw json.RawMessage) (verdict, error) {
	var obj struct {
		Spec struct {
			LivenessProbe json.RawMessage `json:"livenessProbe"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(raw, &obj); err != nil {
		return verdict{Errors: []fieldError{}, Failure: "decode: " + err.Error()}, nil
	}
	if len(obj.Spec.LivenessProbe) == 0 || string(obj.Spec.LivenessProbe) == "null" {
		return verdict{Errors: []fieldError{}, Skipped: true}, nil
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(obj.Spec.LivenessProbe, &probe); err != nil {
		return verdict{Errors: []fieldError{}, Failure: "decode: " + err.Error()}, nil
	}
	standIn := false
	if _, has := probe["apiServer"]; has {
		if _, hasExec := probe["exec"]; !hasExec {
			probe["exec"] = json.RawMessage(apiServerStandIn)
			standIn = true
		}
		delete(probe, "apiServer")
	}
	converted, err := json.Marshal(probe)
	if err != nil {
		return verdict{}, err
	}
	decoded, _, err := legacyscheme.Codecs.UniversalDecoder(api.SchemeGroupVersion).Decode(carrierPod(converted), nil, nil)
	if err != nil {
		return verdict{Errors: []fieldError{}, Failure: "decode: " + err.Error()}, nil
	}
	pod, ok := decoded.(*api.Pod)
	if !ok {
		return verdict{}, fmt.Errorf("decoded a %T, not a Pod", decoded)
	}
	opts := podutil.GetValidationOptionsFromPodSpecAndMeta(&pod.Spec, nil, &pod.ObjectMeta, nil)
	opts.ResourceIsPod = true
	errs := corevalidation.ValidatePodCreate(pod, opts)
	return mapErrors(errs, standIn)
}

func mapErrors(errs field.ErrorList, standIn bool) (verdict, error) {
	out := verdict{Errors: []fieldError{}}
	for _, e := range errs {
		if e.Field != carrierProbe && !strings.HasPrefix(e.Field, carrierProbe+".") {
			return verdict{}, fmt.Errorf("the carrier Pod is invalid outside the probe: %v", e)
		}
		rest := strings.TrimPrefix(e.Field, carrierProbe)
		if standIn && (rest == ".exec" || strings.HasPrefix(rest, ".exec.")) {
			rest = ".apiServer" + strings.TrimPrefix(rest, ".exec")
		}
		moved := *e
		moved.Field = ourProbe + rest
		out.Errors = append(out.Errors, fieldError{
			Field: moved.Field, Type: string(moved.Type), Detail: moved.Detail, Message: moved.Error(),
		})
	}
	return out, nil
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "--version" {
		fmt.Println(version)
		return
	}
	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var in input
	if err := json.Unmarshal(data, &in); err != nil {
		fmt.Fprintln(os.Stderr, "reading the cases:", err)
		os.Exit(2)
	}
	out := make([]verdict, 0, len(in.Cases))
	for _, c := range in.Cases {
		v, err := judge(c.Object)
		if err != nil {
			fmt.Fprintf(os.Stderr, "case %q: %v\n", c.Name, err)
			os.Exit(3)
		}
		v.Name = c.Name
		out = append(out, v)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}
