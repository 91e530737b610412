package io.quarkiverse.cable.deployment;

import io.quarkiverse.cable.runtime.http.ClientScriptRecorder;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.nativeimage.NativeImageResourceBuildItem;
import io.quarkus.vertx.http.deployment.RouteBuildItem;

/**
 * The browser client ({@code quarkus.cable.client}): a plain Vert.x route at the path read at runtime, serving the ES
 * module the {@code quarkus-cable-client} jar carries. The module goes into a native image as a resource.
 */
class ClientScriptProcessor {

    @BuildStep
    NativeImageResourceBuildItem nativeResource() {
        return new NativeImageResourceBuildItem(ClientScriptRecorder.MODULE);
    }

    @BuildStep
    @Record(ExecutionTime.RUNTIME_INIT)
    RouteBuildItem route(ClientScriptRecorder recorder) {
        return RouteBuildItem.builder().routeFunction(recorder.route()).handler(recorder.handler()).build();
    }
}
