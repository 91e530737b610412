package io.quarkiverse.cable.examples;

import jakarta.enterprise.context.ApplicationScoped;

// tag::stream-authorization[]
import io.quarkiverse.cable.StreamAuthorization;
import io.quarkiverse.cable.StreamRequest;

@ApplicationScoped
public class RoomAuthorization implements StreamAuthorization {

    @Override
    public boolean allows(StreamRequest request) {                   // <1>
        String channel = request.channel();                          // <2>
        if (channel.endsWith(":staff")) {
            return request.identity().hasRole("staff");              // <3>
        }
        return true;                                                 // every other room of these examples is public
    }
}
// end::stream-authorization[]
