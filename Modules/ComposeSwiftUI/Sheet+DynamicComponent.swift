#if canImport(SwiftUI)
import Compose
import SwiftUI

extension View {
    /// Presents `dynamic`'s component in a sheet while it is created; dismissing the sheet (a
    /// swipe down) destroys it, as `dynamic.isPresented = false` does.
    ///
    /// ```swift
    /// ProfileView().sheet(settings)   // settings: DynamicComponent<SettingsComponent>
    /// ```
    public func sheet<Presented: Component & View>(_ dynamic: DynamicComponent<Presented>) -> some View {
        let presentation = dynamic.presentation
        return sheet(
            isPresented: Binding(
                get: { presentation.isPresented },
                set: { if !$0 { presentation.dismiss(fileID: #fileID, line: #line) } }
            )
        ) {
            if let component = dynamic.component {
                ComponentView(component)
            }
        }
    }
}
#endif
