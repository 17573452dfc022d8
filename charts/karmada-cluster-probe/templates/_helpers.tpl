{{/*
Shared pieces. The objects mirror manifests/ (rendered by src/webhook/manifests.ts); test/helm/chart.test.ts compares
the two so that the chart and the kustomize install cannot drift apart.
*/}}

{{/* Labels of every object; call with (dict "root" $ "component" "reconciler"). */}}
{{- define "cluster-probe.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/name: cluster-probe
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
app.kubernetes.io/part-of: karmada-cluster-probe
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
{{- end -}}

{{- define "cluster-probe.selectorLabels" -}}
app.kubernetes.io/name: cluster-probe
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "cluster-probe.image" -}}
{{- if .Values.image.digest -}}
{{ .Values.image.repository }}@{{ .Values.image.digest }}
{{- else -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default (printf "v%s" .Chart.AppVersion) }}
{{- end -}}
{{- end -}}

{{/* field or annotation: the value, else annotation on Karmada (whose Cluster API drops the field). */}}
{{- define "cluster-probe.probeLocation" -}}
{{- if .Values.probeLocation -}}
{{ .Values.probeLocation }}
{{- else if eq .Values.target "crd-served" -}}
field
{{- else -}}
annotation
{{- end -}}
{{- end -}}

{{- define "cluster-probe.onKarmada" -}}
{{- if ne .Values.target "crd-served" }}true{{ end -}}
{{- end -}}

{{/* "true" when the webhook's certificate comes from cert-manager (auto: the cluster serves cert-manager.io/v1). */}}
{{- define "cluster-probe.certManager" -}}
{{- $v := .Values.webhook.certManager.enabled -}}
{{- if eq (toString $v) "auto" -}}
{{- if .Capabilities.APIVersions.Has "cert-manager.io/v1" }}true{{ end -}}
{{- else if $v -}}
true
{{- end -}}
{{- end -}}

{{- define "cluster-probe.webhookUrl" -}}
{{- if .Values.webhook.url -}}
{{ trimSuffix "/" .Values.webhook.url }}
{{- else -}}
https://{{ .Values.webhook.name }}.{{ .Release.Namespace }}.svc:443
{{- end -}}
{{- end -}}

{{- define "cluster-probe.podSecurity" -}}
securityContext:
  {{- toYaml .Values.podSecurityContext | nindent 2 }}
{{- end -}}

{{/* Scheduling fields of a component's values; call with the component's values. */}}
{{- define "cluster-probe.scheduling" -}}
{{- with .nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/*
"true" when the reconciler runs Lease sharding (--sharding lease): more than one replica and reconciler.sharding
lease. With one replica, or sharding none, leaderElection decides as before. Used by the Deployment and the Lease RBAC,
so that the karmada-apiserver half (RBAC) and the host half (Deployment) agree from one values file.
*/}}
{{- define "cluster-probe.leaseSharding" -}}
{{- if and (eq .Values.reconciler.sharding "lease") (gt (int .Values.reconciler.replicas) 1) -}}true{{- end -}}
{{- end }}
