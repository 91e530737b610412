package io.quarkiverse.cable.deployment;

import io.quarkiverse.cable.runtime.http.HttpBroadcastRecorder;
import io.quarkiverse.cable.runtime.http.HttpBroadcasts;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.vertx.http.deployment.RouteBuildItem;

/**
 * The HTTP publish endpoint (AnyCable's HTTP broadcaster's wire format): a plain Vert.x route at the path read at
 * runtime, so it needs no REST extension. It passes every request on unless {@code quarkus.cable.http-broadcast.enabled}.
 */
class HttpBroadcastProcessor {

    @BuildStep
    AdditionalBeanBuildItem beans() {
        return AdditionalBeanBuildItem.builder().addBeanClasses(HttpBroadcasts.class)
                .setUnremovable().build();
    }

    @BuildStep
    @Record(ExecutionTime.RUNTIME_INIT)
    RouteBuildItem route(HttpBroadcastRecorder recorder) {
        return RouteBuildItem.builder().routeFunction(recorder.route()).handler(recorder.handler()).build();
    }
}
