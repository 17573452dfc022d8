// Command pause is the Pod sandbox's process: registry.k8s.io/pause cannot be pulled here, so the node imports an
// image of this program under that name. It waits for SIGTERM or SIGINT and exits 0, as upstream's pause.c does.
package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "-v" {
		fmt.Println("pause (karmada-cluster-probe test/node)")
		return
	}
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	<-signals
}
