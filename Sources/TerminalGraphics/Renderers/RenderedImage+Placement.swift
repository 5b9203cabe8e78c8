/// Placing a picture, the operation whose bytes depend on where the picture goes: at a cell of a
/// screen the frame writer keeps track of (`placed(atColumn:row:)`), or where the cursor is in output
/// nobody keeps track of (`atCursor`). Sixel, iTerm2 and text pictures are written where the cursor
/// is, so they are theirs already; a kitty picture placed by id becomes a placement of the uploaded
/// image, with the delete of exactly that placement (Unicode placeholders are text and need neither).
extension RenderedImage {
    /// This picture as placed with its top-left cell at 0-based (`column`, `row`).
    public func placed(atColumn column: Int, row: Int) -> RenderedImage {
        guard let upload, rows.isEmpty else { return self }
        var placed = self
        // Errors reported: the gallery reads them as input and counts them.
        let placement = KittyRenderer.placementID(column: column, row: row)
        let place = KittyRenderer.placement(imageID: upload.id, placementID: placement, cells: cells, reportErrors: true)
        if upload.tmuxPassthrough {
            // tmux does not pass its cursor moves on before a passthrough: move the outer terminal's
            // cursor inside the passthrough (the pane is taken to start at the window's top-left),
            // saved and restored so tmux's own idea of the cursor stays right.
            placed.bytes = TmuxPassthrough.wrap(
                EscapeSequence.saveCursor + EscapeSequence.cursorPosition(row: row + 1, column: column + 1) + place
                    + EscapeSequence.restoreCursor)
        } else {
            placed.bytes = place
        }
        placed.erase = KittyRenderer.delete(imageID: upload.id, placementID: placement, tmuxPassthrough: upload.tmuxPassthrough)
        return placed
    }

    /// The bytes that show this picture where the cursor is, for output nobody keeps track of (a
    /// contact sheet): a kitty picture placed by id is placement `placementID` of its image, its
    /// data sent first when `sendingData`; any other picture is its bytes.
    public func atCursor(placementID: UInt32, sendingData: Bool) -> [UInt8] {
        guard let upload else { return bytes }
        return (sendingData ? upload.bytes : []) + KittyRenderer.placement(
            imageID: upload.id, placementID: placementID, cells: cells, tmuxPassthrough: upload.tmuxPassthrough)
    }
}
