// Command cluster-probe-karmada-oracle judges Clusters with Karmada's own code, as karmada-aggregated-apiserver does
// on create: decode cluster.karmada.io/v1alpha1 JSON with Karmada's scheme (defaults, conversion to the internal
// type), then rest.BeforeCreate with Karmada's Cluster strategy (PrepareForCreate, validation.ValidateCluster,
// ObjectMeta checks). It is compiled inside Karmada's source tree (go build -overlay, -mod=vendor) by
// scripts/build-oracle.mjs, so it links exactly the code and vendored modules the Karmada control plane builds from.
//
// stdin: {"cases":[{"name":"...","object":{...}}]}; stdout: [{"name","errors":[{field,type,detail,message}],"failure",
// "strict":[...]}] where failure is a refusal that carries no field errors (a decode error, a bad request), and strict
// is what decoding with Karmada's scheme in strict mode reports (each `unknown field "spec.x"`), as the apiserver's
// handlers do under fieldValidation=Strict (the refusal) or Warn (one warning each).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	utilfeature "k8s.io/apiserver/pkg/util/feature"

	clusterapis "github.com/karmada-io/karmada/pkg/apis/cluster"
	clusterscheme "github.com/karmada-io/karmada/pkg/apis/cluster/scheme"
	"github.com/karmada-io/karmada/pkg/features"
	clusterregistry "github.com/karmada-io/karmada/pkg/registry/cluster"
)

const version = "cluster-probe-karmada-oracle (Karmada pkg/apis/cluster/validation via the Cluster strategy)"

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
	Strict  []string     `json:"strict"`
}

// strictCodecs decode as the apiserver's handlers do when the client asks fieldValidation Strict or Warn.
var strictCodecs = serializer.NewCodecFactory(clusterscheme.Scheme, serializer.EnableStrict)

// strictErrors is what strict decoding reports: each unknown or duplicate field, in the decoder's words.
func strictErrors(raw json.RawMessage) []string {
	out := []string{}
	_, _, err := strictCodecs.UniversalDecoder(clusterapis.SchemeGroupVersion).Decode(raw, nil, nil)
	if strictErr, ok := runtime.AsStrictDecodingError(err); ok {
		for _, e := range strictErr.Errors() {
			out = append(out, e.Error())
		}
	}
	return out
}

// capturing keeps the field.ErrorList the strategy's Validate returned, so the details survive (a StatusError's
// causes keep only the rendered body).
type capturing struct {
	clusterregistry.Strategy
	errs field.ErrorList
}

func (c *capturing) Validate(ctx context.Context, obj runtime.Object) field.ErrorList {
	c.errs = c.Strategy.Validate(ctx, obj)
	return c.errs
}

func fromFieldErrors(errs field.ErrorList) []fieldError {
	out := make([]fieldError, 0, len(errs))
	for _, e := range errs {
		out = append(out, fieldError{Field: e.Field, Type: string(e.Type), Detail: e.Detail, Message: e.Error()})
	}
	return out
}

func judge(raw json.RawMessage) verdict {
	obj, _, err := clusterscheme.Codecs.UniversalDecoder(clusterapis.SchemeGroupVersion).Decode(raw, nil, nil)
	if err != nil {
		return verdict{Errors: []fieldError{}, Failure: "decode: " + err.Error()}
	}
	cluster, ok := obj.(*clusterapis.Cluster)
	if !ok {
		return verdict{Errors: []fieldError{}, Failure: fmt.Sprintf("decoded a %T, not a Cluster", obj)}
	}
	// What the generic store does before BeforeCreate.
	rest.FillObjectMetaSystemFields(cluster)
	if cluster.GenerateName != "" && cluster.Name == "" {
		cluster.Name = cluster.GenerateName + "x7k2q"
	}
	strategy := &capturing{Strategy: clusterregistry.NewStrategy(clusterscheme.Scheme)}
	ctx := genericapirequest.WithNamespace(genericapirequest.NewContext(), "")
	err = rest.BeforeCreate(strategy, ctx, cluster)
	if len(strategy.errs) > 0 {
		return verdict{Errors: fromFieldErrors(strategy.errs)}
	}
	if err == nil {
		return verdict{Errors: []fieldError{}}
	}
	if status, ok := err.(apierrors.APIStatus); ok && apierrors.IsInvalid(err) && status.Status().Details != nil {
		out := []fieldError{}
		for _, c := range status.Status().Details.Causes {
			out = append(out, fieldError{Field: c.Field, Type: string(c.Type), Message: c.Field + ": " + c.Message})
		}
		return verdict{Errors: out}
	}
	return verdict{Errors: []fieldError{}, Failure: err.Error()}
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "--version" {
		fmt.Println(version)
		return
	}
	// As karmada-aggregated-apiserver does at start-up: Karmada's gates, at their defaults.
	if err := utilfeature.DefaultMutableFeatureGate.Add(features.DefaultFeatureGates); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
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
		v := judge(c.Object)
		v.Name = c.Name
		v.Strict = strictErrors(c.Object)
		out = append(out, v)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}
