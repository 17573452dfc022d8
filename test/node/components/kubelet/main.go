// Command kubelet is upstream's cmd/kubelet, built from the same k8s.io/kubernetes module as kube-apiserver
// (test/e2e/controlplane/kube-apiserver) for the one-node host cluster of test/node (see docs/release.md).
package main

import (
	"context"
	"os"

	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"          // --logging-format=json
	_ "k8s.io/component-base/metrics/prometheus/clientgo" // client-go metrics
	_ "k8s.io/component-base/metrics/prometheus/version"  // version metric
	"k8s.io/kubernetes/cmd/kubelet/app"
)

func main() {
	// A nil context panics: upstream passes context.Background() too.
	os.Exit(cli.Run(app.NewKubeletCommand(context.Background())))
}
