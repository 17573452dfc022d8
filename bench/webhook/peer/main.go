// Command cluster-probe-webhook-peer is the Go webhook a user would write for Karmada Clusters, the peer the webhook
// bench compares against (issue 23): controller-runtime's webhook.Server, as karmada-webhook runs it, serving over TLS
//
//   - /validate: an admission.Webhook whose handler decodes the Cluster with admission.Decoder, converts it to
//     Karmada's internal type and calls Karmada's own validation.ValidateCluster, answering as karmada-webhook's
//     validating handlers do (admission.Denied(errs.ToAggregate().Error()), else admission.Allowed);
//   - /mutate: controller-runtime's Defaulter (admission.WithDefaulter, which answers with PatchResponseFromRaw of the
//     request's object and the defaulted one) applying Karmada's own Cluster mutation. Karmada has no mutating webhook
//     for Clusters: karmada-aggregated-apiserver's Cluster strategy mutates them (PrepareForCreate's resource models,
//     Canonicalize's mutation.MutateCluster), so the Defaulter does what that strategy does to a Cluster's spec.
//
// It is compiled inside Karmada's source tree (go build -overlay, -mod=vendor) by scripts/build-oracle.mjs
// (--webhook-peer), like test/oracle/karmada, so it links the controller-runtime and Karmada code Karmada vendors.
// It runs on GOMAXPROCS=1 unless -procs says otherwise; -port 0 picks a free port, printed on stdout as {"port":N}
// once the server answers TLS.
package main

import (
	"context"
	"crypto/tls"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"syscall"
	"time"

	"github.com/go-logr/logr"
	admissionv1 "k8s.io/api/admission/v1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	clusterapis "github.com/karmada-io/karmada/pkg/apis/cluster"
	"github.com/karmada-io/karmada/pkg/apis/cluster/mutation"
	clusterscheme "github.com/karmada-io/karmada/pkg/apis/cluster/scheme"
	clusterv1alpha1 "github.com/karmada-io/karmada/pkg/apis/cluster/v1alpha1"
	"github.com/karmada-io/karmada/pkg/apis/cluster/validation"
	"github.com/karmada-io/karmada/pkg/features"
)

const version = "cluster-probe-webhook-peer (controller-runtime admission.Webhook over Karmada's Cluster validation and mutation)"

// validatingAdmission is written as karmada-webhook's validating handlers are (pkg/webhook/*/validating.go).
type validatingAdmission struct {
	decoder admission.Decoder
}

var _ admission.Handler = &validatingAdmission{}

func (v *validatingAdmission) Handle(_ context.Context, req admission.Request) admission.Response {
	cluster := &clusterv1alpha1.Cluster{}
	if err := v.decoder.Decode(req, cluster); err != nil {
		return admission.Errored(http.StatusBadRequest, err)
	}
	internal := &clusterapis.Cluster{}
	if err := clusterscheme.Scheme.Convert(cluster, internal, nil); err != nil {
		return admission.Errored(http.StatusBadRequest, err)
	}
	if errs := validation.ValidateCluster(internal); len(errs) != 0 {
		return admission.Denied(errs.ToAggregate().Error())
	}
	return admission.Allowed("")
}

// clusterDefaulter applies what karmada-aggregated-apiserver's Cluster strategy does to a Cluster's spec
// (pkg/registry/cluster/strategy.go): on create, the default resource models (or, when some are given, their
// standardisation) under the CustomizedClusterResourceModeling gate; on update, the standardisation; on both,
// mutation.MutateCluster (NoExecute taints get timeAdded, a lone zone moves to zones). With canonicalizeOnly
// (-mutation canonicalize) it applies MutateCluster alone, which leaves the bench's reviews unchanged.
type clusterDefaulter struct {
	canonicalizeOnly bool
}

var _ admission.Defaulter[*clusterv1alpha1.Cluster] = clusterDefaulter{}

func (d clusterDefaulter) Default(ctx context.Context, cluster *clusterv1alpha1.Cluster) error {
	req, err := admission.RequestFromContext(ctx)
	if err != nil {
		return err
	}
	internal := &clusterapis.Cluster{}
	if err := clusterscheme.Scheme.Convert(cluster, internal, nil); err != nil {
		return err
	}
	if !d.canonicalizeOnly && utilfeature.DefaultMutableFeatureGate.Enabled(features.CustomizedClusterResourceModeling) {
		if len(internal.Spec.ResourceModels) == 0 && req.Operation == admissionv1.Create {
			mutation.SetDefaultClusterResourceModels(internal)
		} else {
			mutation.StandardizeClusterResourceModels(internal.Spec.ResourceModels)
		}
	}
	mutation.MutateCluster(internal)
	mutated := &clusterv1alpha1.Cluster{}
	if err := clusterscheme.Scheme.Convert(internal, mutated, nil); err != nil {
		return err
	}
	// Conversion leaves TypeMeta empty; without it the patch would remove apiVersion and kind.
	mutated.TypeMeta = cluster.TypeMeta
	*cluster = *mutated
	return nil
}

// freePort asks the kernel for a free port on host: controller-runtime's webhook.Server takes a port number, and 0
// means its default (9443), not "any".
func freePort(host string) (int, error) {
	l, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "cluster-probe-webhook-peer: "+format+"\n", args...)
	os.Exit(2)
}

func main() {
	showVersion := flag.Bool("version", false, "print the version and exit")
	certFile := flag.String("cert", "", "serving certificate (PEM)")
	keyFile := flag.String("key", "", "serving key (PEM)")
	host := flag.String("host", "127.0.0.1", "address to listen on")
	port := flag.Int("port", 0, "port to listen on; 0 picks a free one")
	procs := flag.Int("procs", 1, "GOMAXPROCS: the peer runs on one core unless told otherwise")
	mutationMode := flag.String("mutation", "strategy",
		"strategy: what Karmada's Cluster strategy does (resource models on create, MutateCluster); canonicalize: MutateCluster alone")
	flag.Parse()
	if *showVersion {
		fmt.Println(version)
		return
	}
	if *certFile == "" || *keyFile == "" {
		fail("-cert and -key are required")
	}
	if *mutationMode != "strategy" && *mutationMode != "canonicalize" {
		fail("-mutation must be strategy or canonicalize, got %q", *mutationMode)
	}
	if *procs < 1 {
		fail("-procs must be at least 1, got %d", *procs)
	}
	runtime.GOMAXPROCS(*procs)
	ctrllog.SetLogger(logr.Discard())
	// As karmada-aggregated-apiserver and karmada-webhook do at start-up: Karmada's gates, at their defaults.
	if err := utilfeature.DefaultMutableFeatureGate.Add(features.DefaultFeatureGates); err != nil {
		fail("feature gates: %v", err)
	}

	if *port == 0 {
		p, err := freePort(*host)
		if err != nil {
			fail("finding a free port: %v", err)
		}
		*port = p
	}
	certDir := filepath.Dir(*certFile)
	keyName, err := filepath.Rel(certDir, *keyFile)
	if err != nil {
		fail("key %s: %v", *keyFile, err)
	}
	server := webhook.NewServer(webhook.Options{
		Host:     *host,
		Port:     *port,
		CertDir:  certDir,
		CertName: filepath.Base(*certFile),
		KeyName:  keyName,
		TLSOpts:  []func(*tls.Config){func(c *tls.Config) { c.MinVersion = tls.VersionTLS12 }},
	})
	decoder := admission.NewDecoder(clusterscheme.Scheme)
	server.Register("/validate", &webhook.Admission{Handler: &validatingAdmission{decoder: decoder}})
	server.Register("/mutate", admission.WithDefaulter[*clusterv1alpha1.Cluster](clusterscheme.Scheme, clusterDefaulter{canonicalizeOnly: *mutationMode == "canonicalize"}))

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	served := make(chan error, 1)
	go func() { served <- server.Start(ctx) }()

	// Ready when a TLS handshake succeeds (controller-runtime's own StartedChecker).
	started := server.StartedChecker()
	deadline := time.Now().Add(20 * time.Second)
	for {
		select {
		case err := <-served:
			fail("serving on %s:%d: %v", *host, *port, err)
		default:
		}
		if started(nil) == nil {
			break
		}
		if time.Now().After(deadline) {
			fail("not serving on %s:%d after 20 s", *host, *port)
		}
		time.Sleep(20 * time.Millisecond)
	}
	fmt.Printf("{\"port\":%d}\n", *port)
	if err := <-served; err != nil {
		fail("%v", err)
	}
}
